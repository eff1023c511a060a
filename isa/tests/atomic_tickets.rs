//! Lane counting (`v_mbcnt_lo/hi_u32_b32`) and a wave's uniform atomic:
//! the kernel (`fixtures/isa/src/atomic_tickets.cl`, built by clang-19)
//! has every work-item take a ticket from one counter, which LLVM's atomic
//! optimizer turns into one `global_atomic_add` per wave, each lane's
//! ticket the returned value plus the count of active lanes below it
//! (`v_mbcnt` over `exec`); every work-item also records its lane, `v_mbcnt`
//! over all lanes. The expected values follow from atomic semantics and
//! the grid, not from the interpreter: each ticket below the work-item
//! count exactly once, the counter at that count, and each lane the
//! work-item's position in its wave (64 lanes on gfx9, 32 on gfx1100).

mod fixture;

use amdgpu_isa::Regions;
use amdgpu_isa::{Chip, Dispatch, Inputs, MAX_WAVE_INSTRUCTIONS, run_dispatch};
use fixture::{kernel, words};

const COUNTER: u64 = 0x10_0000;
const TICKETS: u64 = 0x20_0000;
const LANES: u64 = 0x30_0000;
/// The kernel's `reqd_work_group_size`.
const BLOCK: u32 = 64;

#[test]
fn every_work_item_takes_one_ticket_and_knows_its_lane() {
    // Whole waves; a last wave with 36 active lanes of 64 (4 of 32 on
    // gfx1100); a grid of one wave's part.
    for count in [256u32, 100, 5] {
        for chip in [Chip::Gfx90a, Chip::Gfx942, Chip::Gfx1100] {
            let (program, descriptor, kernarg_size) = kernel("atomic_tickets", chip);
            let padded = count.next_multiple_of(BLOCK) as usize;
            let mut memory = Regions::new(vec![
                (COUNTER, vec![0; 4]),
                (TICKETS, vec![0xff; padded * 4]),
                (LANES, vec![0xff; padded * 4]),
            ]);
            let mut kernargs = vec![0u8; kernarg_size as usize];
            kernargs[0..8].copy_from_slice(&COUNTER.to_le_bytes());
            kernargs[8..16].copy_from_slice(&TICKETS.to_le_bytes());
            kernargs[16..24].copy_from_slice(&LANES.to_le_bytes());
            kernargs[24..28].copy_from_slice(&count.to_le_bytes());
            let dispatch = Dispatch {
                program: &program,
                descriptor,
                // Whole work-groups: the kernel's own bound check leaves the
                // last group's lanes past `count` inactive.
                grid_size: [padded as u32, 1, 1],
                block: [BLOCK, 1, 1],
                dynamic_lds: 0,
                inputs: Inputs::Packet {
                    kernel_object: 0x1000,
                    kernarg_address: 0x50_0000,
                    kernargs: &kernargs,
                    packet_address: 0x60_0000,
                },
                instruction_limit: MAX_WAVE_INSTRUCTIONS,
            };
            let what = format!("{chip:?}, {count} work-items");
            run_dispatch(&dispatch, &mut memory).unwrap_or_else(|e| panic!("{what}: {e}"));

            assert_eq!(words(&memory, COUNTER), [count], "{what}: the counter");
            let tickets = words(&memory, TICKETS);
            let mut taken = tickets[..count as usize].to_vec();
            taken.sort_unstable();
            assert_eq!(taken, (0..count).collect::<Vec<_>>(), "{what}: tickets");
            let wave = if chip == Chip::Gfx1100 { 32 } else { 64 };
            for (id, lane) in words(&memory, LANES).iter().enumerate() {
                let want = if id < count as usize {
                    id as u32 % wave
                } else {
                    u32::MAX
                };
                assert_eq!(*lane, want, "{what}: lane of work-item {id}");
            }
            assert!(
                tickets[count as usize..].iter().all(|t| *t == u32::MAX),
                "{what}: a ticket past the work-items"
            );
        }
    }
}
