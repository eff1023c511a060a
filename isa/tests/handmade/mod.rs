//! What the tests of hand-assembled code share: a kernel of a few
//! instruction words (each test gives the words with the text
//! `llvm-mc-19 --arch=amdgcn -show-encoding` assembles to them) run as a
//! PM4 dispatch would run it, its user SGPRs given directly, over buffers
//! of the test's own; and a template that runs one instruction per lane
//! over inputs from memory.

#![allow(dead_code)]

use amdgpu_isa::{
    Chip, Dispatch, Fault, Inputs, KernelDescriptor, MAX_WAVE_INSTRUCTIONS, Program, Regions,
    Stats, run_dispatch,
};

/// The kernel's code as bytes.
pub fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// A descriptor giving the kernel `user` user SGPRs, every VGPR zeroed
/// before it starts, wave32 or wave64.
pub fn descriptor(user: usize, wave32: bool) -> KernelDescriptor {
    let mut kd = [0u8; 64];
    // COMPUTE_PGM_RSRC3.ACCUM_OFFSET: AGPRs after 256 VGPRs (CDNA).
    kd[44..48].copy_from_slice(&0x3fu32.to_le_bytes());
    // COMPUTE_PGM_RSRC1.GRANULATED_WORKITEM_VGPR_COUNT: the most.
    kd[48..52].copy_from_slice(&0x3fu32.to_le_bytes());
    kd[52..56].copy_from_slice(&((user as u32) << 1).to_le_bytes());
    let properties: u16 = if wave32 { 1 << 10 } else { 0 };
    kd[56..58].copy_from_slice(&properties.to_le_bytes());
    KernelDescriptor::parse(&kd).unwrap()
}

/// Runs `program` as one work-group of `lanes` work-items (one wave: 32
/// on gfx1100, 64 on CDNA) with `user` in its first SGPRs.
pub fn run(
    program: &Program,
    user: &[u32],
    lanes: u32,
    memory: &mut Regions,
) -> Result<Stats, Fault> {
    let wave32 = matches!(program.chip(), Chip::Gfx1100 | Chip::Gfx1201);
    let dispatch = Dispatch {
        program,
        descriptor: descriptor(user.len(), wave32),
        grid_size: [lanes, 1, 1],
        block: [lanes, 1, 1],
        dynamic_lds: 0,
        inputs: Inputs::UserData(user),
        instruction_limit: MAX_WAVE_INSTRUCTIONS,
    };
    run_dispatch(&dispatch, memory)
}

/// Where [`per_lane`] keeps its inputs and output.
const INPUTS: [u64; 4] = [0x10_0000, 0x20_0000, 0x30_0000, 0x40_0000];
const OUTPUT: u64 = 0x50_0000;

/// Loads lane `i`'s inputs into v2, v3, v4, v5 (s[0:1], s[2:3], s[4:5],
/// s[6:7] point at four arrays of dwords), zeroes v6 and v7; v1 is the
/// lane's input offset, v8 its output offset.
const PROLOGUE_GFX9: [u32; 13] = [
    0x24020082, // v_lshlrev_b32_e32 v1, 2, v0
    0x24100083, // v_lshlrev_b32_e32 v8, 3, v0
    0xdc508000, 0x02000001, // global_load_dword v2, v1, s[0:1]
    0xdc508000, 0x03020001, // global_load_dword v3, v1, s[2:3]
    0xdc508000, 0x04040001, // global_load_dword v4, v1, s[4:5]
    0xdc508000, 0x05060001, // global_load_dword v5, v1, s[6:7]
    0x7e0c0280, // v_mov_b32_e32 v6, 0
    0x7e0e0280, // v_mov_b32_e32 v7, 0
    0xbf8c0f70, // s_waitcnt vmcnt(0)
];
/// Stores v[6:7] at lane `i`'s place in s[8:9]'s array of qwords.
const EPILOGUE_GFX9: [u32; 3] = [
    0xdc748000, 0x00080608, // global_store_dwordx2 v8, v[6:7], s[8:9]
    0xbf810000, // s_endpgm
];
const PROLOGUE_GFX11: [u32; 13] = [
    0x30020082, // v_lshlrev_b32_e32 v1, 2, v0
    0x30100083, // v_lshlrev_b32_e32 v8, 3, v0
    0xdc520000, 0x02000001, // global_load_b32 v2, v1, s[0:1]
    0xdc520000, 0x03020001, // global_load_b32 v3, v1, s[2:3]
    0xdc520000, 0x04040001, // global_load_b32 v4, v1, s[4:5]
    0xdc520000, 0x05060001, // global_load_b32 v5, v1, s[6:7]
    0x7e0c0280, // v_mov_b32_e32 v6, 0
    0x7e0e0280, // v_mov_b32_e32 v7, 0
    0xbf8903f7, // s_waitcnt vmcnt(0)
];
const EPILOGUE_GFX11: [u32; 3] = [
    0xdc6e0000, 0x00080608, // global_store_b64 v8, v[6:7], s[8:9]
    0xbfb00000, // s_endpgm
];

/// [`PROLOGUE_GFX11`] in GFX12's encodings (`llvm-mc-19 -mcpu=gfx1201
/// -show-encoding`): VGLOBAL loads, the split wait counter.
const PROLOGUE_GFX12: [u32; 17] = [
    0x30020082, // v_lshlrev_b32_e32 v1, 2, v0
    0x30100083, // v_lshlrev_b32_e32 v8, 3, v0
    0xee050000, 0x00000002, 0x00000001, // global_load_b32 v2, v1, s[0:1]
    0xee050002, 0x00000003, 0x00000001, // global_load_b32 v3, v1, s[2:3]
    0xee050004, 0x00000004, 0x00000001, // global_load_b32 v4, v1, s[4:5]
    0xee050006, 0x00000005, 0x00000001, // global_load_b32 v5, v1, s[6:7]
    0x7e0c0280, // v_mov_b32_e32 v6, 0
    0x7e0e0280, // v_mov_b32_e32 v7, 0
    0xbfc00000, // s_wait_loadcnt 0x0
];
const EPILOGUE_GFX12: [u32; 4] = [
    0xee06c008, 0x03000000, 0x00000008, // global_store_b64 v8, v[6:7], s[8:9]
    0xbfb00000, // s_endpgm
];

/// Runs `op` (instruction words reading v2-v5 and writing v6, or v[6:7])
/// once per lane over `inputs` (one value per lane in each of up to four
/// arrays; missing ones are zero) on `chip`, and returns v[6:7] of each
/// lane as a qword (v6 in the low half).
pub fn per_lane(chip: Chip, op: &[u32], inputs: &[&[u32]]) -> Vec<u64> {
    let lanes = inputs.iter().map(|a| a.len()).max().unwrap_or(1);
    let wave32 = matches!(chip, Chip::Gfx1100 | Chip::Gfx1201);
    assert!(lanes <= if wave32 { 32 } else { 64 });
    let (prologue, epilogue): (&[u32], &[u32]) = match chip {
        Chip::Gfx1100 => (&PROLOGUE_GFX11, &EPILOGUE_GFX11),
        Chip::Gfx1201 => (&PROLOGUE_GFX12, &EPILOGUE_GFX12),
        _ => (&PROLOGUE_GFX9, &EPILOGUE_GFX9),
    };
    let code: Vec<u32> = [prologue, op, epilogue].concat();
    let program = Program::decode(chip, &bytes(&code)).unwrap();
    let mut regions: Vec<(u64, Vec<u8>)> = INPUTS
        .iter()
        .enumerate()
        .map(|(i, &base)| {
            let values = inputs.get(i).copied().unwrap_or(&[]);
            let mut data = bytes(values);
            data.resize(lanes * 4, 0);
            (base, data)
        })
        .collect();
    regions.push((OUTPUT, vec![0; lanes * 8]));
    let mut memory = Regions::new(regions);
    let mut user = Vec::new();
    for address in INPUTS.iter().chain([&OUTPUT]) {
        user.extend([*address as u32, (*address >> 32) as u32]);
    }
    run(&program, &user, lanes as u32, &mut memory).unwrap_or_else(|e| panic!("{chip:?}: {e}"));
    memory
        .bytes(OUTPUT)
        .unwrap()
        .chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// [`per_lane`]'s results' low dwords (v6).
pub fn per_lane32(chip: Chip, op: &[u32], inputs: &[&[u32]]) -> Vec<u32> {
    per_lane(chip, op, inputs)
        .into_iter()
        .map(|q| q as u32)
        .collect()
}
