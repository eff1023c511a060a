//! Partial work-groups: HSA lets a dispatch's grid be any number of
//! work-items, and where the work-group size does not divide it the last
//! work-group of that dimension holds only the work-items inside the grid
//! (IREE's blit kernels rely on it: their grids are counts of blocks). The
//! kernel (`fixtures/isa/src/partial_groups.cl`, built by clang-19) writes
//! each work-item's local coordinates at its global position; the expected
//! values follow from the grid, not from the interpreter: every position
//! inside the grid written with its coordinates within its work-group,
//! nothing outside it (the output is wider and taller than the grid).

use amdgpu_isa::{
    Chip, Dispatch, Inputs, KernelDescriptor, MAX_WAVE_INSTRUCTIONS, Memory, OutOfBounds, Program,
    run_dispatch,
};
use goblin::elf::Elf;

const OUT: u64 = 0x10_0000;
/// The kernel's `reqd_work_group_size`.
const BLOCK: [u32; 3] = [8, 4, 1];
/// Columns and rows of the output: wider and taller than any grid here, so
/// a write outside the grid lands where it shows.
const WIDTH: u32 = 24;
const HEIGHT: u32 = 12;

struct Buffers {
    out: Vec<u8>,
}

impl Buffers {
    fn slice(&mut self, address: u64, len: usize) -> Result<&mut [u8], OutOfBounds> {
        let start = address.checked_sub(OUT).ok_or(OutOfBounds)? as usize;
        self.out.get_mut(start..start + len).ok_or(OutOfBounds)
    }
}

impl Memory for Buffers {
    fn read(&mut self, address: u64, out: &mut [u8]) -> Result<(), OutOfBounds> {
        out.copy_from_slice(self.slice(address, out.len())?);
        Ok(())
    }

    fn write(&mut self, address: u64, data: &[u8]) -> Result<(), OutOfBounds> {
        self.slice(address, data.len())?.copy_from_slice(data);
        Ok(())
    }
}

fn kernel(chip: Chip) -> (Program, KernelDescriptor, u32) {
    let path = format!(
        "{}/../fixtures/isa/partial_groups.{}.hsaco",
        env!("CARGO_MANIFEST_DIR"),
        chip.name()
    );
    let bytes = std::fs::read(path).unwrap();
    let elf = Elf::parse(&bytes).unwrap();
    let symbol = |name: &str| {
        elf.dynsyms
            .iter()
            .find(|s| elf.dynstrtab.get_at(s.st_name) == Some(name))
            .unwrap()
    };
    let at = |value: u64, size: u64| {
        let h = elf
            .section_headers
            .iter()
            .find(|h| value >= h.sh_addr && value < h.sh_addr + h.sh_size)
            .unwrap();
        let offset = (h.sh_offset + value - h.sh_addr) as usize;
        bytes[offset..offset + size as usize].to_vec()
    };
    let f = symbol("partial_groups");
    let kd = symbol("partial_groups.kd");
    let program = Program::decode(chip, &at(f.st_value, f.st_size)).unwrap();
    let descriptor = KernelDescriptor::parse(&at(kd.st_value, 64)).unwrap();
    let kernarg_size = u32::from_le_bytes(at(kd.st_value + 8, 4).try_into().unwrap());
    (program, descriptor, kernarg_size)
}

#[test]
fn partial_work_groups_run_exactly_the_work_items_inside_the_grid() {
    // Whole work-groups; a partial column of groups; partial in both
    // dimensions; a grid smaller than one work-group.
    for grid in [[16, 8], [20, 8], [20, 10], [3, 1]] {
        for chip in [Chip::Gfx90a, Chip::Gfx942, Chip::Gfx1100] {
            let (program, descriptor, kernarg_size) = kernel(chip);
            let mut memory = Buffers {
                out: vec![0; (WIDTH * HEIGHT * 4) as usize],
            };
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
            for (i, chunk) in memory.out.chunks_exact(4).enumerate() {
                let (x, y) = (i as u32 % WIDTH, i as u32 / WIDTH);
                let got = u32::from_le_bytes(chunk.try_into().unwrap());
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
