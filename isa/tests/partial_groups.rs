//! Partial work-groups: HSA lets a dispatch's grid be any number of
//! work-items, and where the work-group size does not divide it the last
//! work-group of that dimension holds only the work-items inside the grid
//! (IREE's blit kernels rely on it: their grids are counts of blocks). The
//! kernel (`fixtures/isa/src/partial_groups.cl`, built by clang-19) writes
//! each work-item's local coordinates at its global position; the expected
//! values follow from the grid, not from the interpreter: every position
//! inside the grid written with its coordinates within its work-group,
//! nothing outside it (the output is wider and taller than the grid).

mod fixture;

use amdgpu_isa::Regions;
use amdgpu_isa::{Chip, Dispatch, Inputs, MAX_WAVE_INSTRUCTIONS, run_dispatch};
use fixture::{kernel, words};

const OUT: u64 = 0x10_0000;
/// The kernel's `reqd_work_group_size`.
const BLOCK: [u32; 3] = [8, 4, 1];
/// Columns and rows of the output: wider and taller than any grid here, so
/// a write outside the grid lands where it shows.
const WIDTH: u32 = 24;
const HEIGHT: u32 = 12;

#[test]
fn partial_work_groups_run_exactly_the_work_items_inside_the_grid() {
    // Whole work-groups; a partial column of groups; partial in both
    // dimensions; a grid smaller than one work-group.
    for grid in [[16, 8], [20, 8], [20, 10], [3, 1]] {
        for chip in [Chip::Gfx90a, Chip::Gfx942, Chip::Gfx1100] {
            let (program, descriptor, kernarg_size) = kernel("partial_groups", chip);
            let mut memory = Regions::new(vec![(OUT, vec![0; (WIDTH * HEIGHT * 4) as usize])]);
            let mut kernargs = vec![0u8; kernarg_size as usize];
            kernargs[0..8].copy_from_slice(&OUT.to_le_bytes());
            kernargs[8..12].copy_from_slice(&WIDTH.to_le_bytes());
            let dispatch = Dispatch {
                program: &program,
                descriptor,
                grid_size: [grid[0], grid[1], 1],
                block: BLOCK,
                dynamic_lds: 0,
                inputs: Inputs::Packet {
                    kernel_object: 0x1000,
                    kernarg_address: 0x30_0000,
                    kernargs: &kernargs,
                    packet_address: 0x40_0000,
                },
                instruction_limit: MAX_WAVE_INSTRUCTIONS,
            };
            let what = format!("{chip:?}, grid {grid:?}");
            run_dispatch(&dispatch, &mut memory).unwrap_or_else(|e| panic!("{what}: {e}"));
            for (i, got) in words(&memory, OUT).into_iter().enumerate() {
                let (x, y) = (i as u32 % WIDTH, i as u32 / WIDTH);
                let inside = x < grid[0] && y < grid[1];
                let want = if inside {
                    0x10000 + ((y % BLOCK[1]) << 8) + x % BLOCK[0]
                } else {
                    0
                };
                assert_eq!(got, want, "{what}: ({x}, {y})");
            }
        }
    }
}
