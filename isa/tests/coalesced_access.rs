//! A wave's global loads and stores whose lanes touch one run of memory
//! (lane `i` at `base + i * bytes`) are made as one access per run
//! (`exec::memory`): they must read and write what the lanes' own
//! accesses would, and a run that leaves memory must fault at the lane
//! the lane-by-lane access faults at, with the lanes before it written.
//! Expected values are the inputs themselves, placed by the test.

mod handmade;

use amdgpu_isa::{Chip, FaultKind, Program, Regions};
use handmade::{bytes, run};

const SRC: u64 = 0x10_0000;
const DST: u64 = 0x20_0000;
/// `v_lshlrev_b32 v1, 2, v0`: lane `i` at byte `4 i`.
const DWORD_OFFSETS: u32 = 0x2402_0082;
/// `v_lshlrev_b32 v1, 4, v0`: lane `i` at byte `16 i`.
const QUAD_OFFSETS: u32 = 0x2402_0084;
/// `global_load_dword v2, v1, s[0:1]`, `global_store_dword v1, v2, s[2:3]`.
const COPY_DWORD: [u32; 4] = [0xdc50_8000, 0x0200_0001, 0xdc70_8000, 0x0002_0201];
/// `global_load_dwordx4 v[2:5], v1, s[0:1]`, `global_store_dwordx4 v1, v[2:5], s[2:3]`.
const COPY_QUAD: [u32; 4] = [0xdc5c_8000, 0x0200_0001, 0xdc7c_8000, 0x0002_0201];
const ENDPGM: u32 = 0xbf81_0000;

/// Copies with each lane's `width` bytes at `width * lane`, over a source
/// and destination of the given sizes; returns the run's outcome and the
/// destination's bytes.
fn copy(
    offsets: u32,
    copy: [u32; 4],
    src_len: usize,
    dst_len: usize,
) -> (Result<(), String>, Vec<u8>) {
    let mut words = vec![offsets];
    words.extend(copy);
    words.push(ENDPGM);
    let program = Program::decode(Chip::Gfx942, &bytes(&words)).unwrap();
    let source: Vec<u8> = (0..src_len).map(|i| (i * 7 + 3) as u8).collect();
    let mut memory = Regions::new(vec![(SRC, source), (DST, vec![0; dst_len])]);
    let user = [SRC as u32, 0, DST as u32, 0];
    let outcome = run(&program, &user, 64, &mut memory)
        .map(|_| ())
        .map_err(|fault| {
            assert_eq!(fault.kind, FaultKind::Device, "{fault}");
            fault.reason
        });
    (outcome, memory.bytes(DST).unwrap().to_vec())
}

fn pattern(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 7 + 3) as u8).collect()
}

#[test]
fn a_wave_of_consecutive_dwords_is_copied_whole() {
    let (outcome, dst) = copy(DWORD_OFFSETS, COPY_DWORD, 256, 256);
    assert_eq!(outcome, Ok(()));
    assert_eq!(dst, pattern(256));
}

#[test]
fn a_wave_of_consecutive_16_byte_accesses_is_copied_whole() {
    let (outcome, dst) = copy(QUAD_OFFSETS, COPY_QUAD, 1024, 1024);
    assert_eq!(outcome, Ok(()));
    assert_eq!(dst, pattern(1024));
}

#[test]
fn a_store_run_past_memory_faults_at_its_first_lane_outside_after_the_lanes_before() {
    let (outcome, dst) = copy(DWORD_OFFSETS, COPY_DWORD, 256, 200);
    assert_eq!(
        outcome,
        Err(format!(
            "memory access fault: store of 4 bytes at {:#x} (lane 50)",
            DST + 200
        ))
    );
    assert_eq!(dst, pattern(200));
}

#[test]
fn a_load_run_past_memory_faults_at_its_first_lane_outside() {
    let (outcome, dst) = copy(QUAD_OFFSETS, COPY_QUAD, 1000, 1024);
    assert_eq!(
        outcome,
        Err(format!(
            "memory access fault: load of 16 bytes at {:#x} (lane 62)",
            SRC + 992
        ))
    );
    assert_eq!(
        dst,
        vec![0; 1024],
        "nothing is stored after a faulting load"
    );
}
