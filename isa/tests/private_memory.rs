//! Scratch (private) memory, the three ways the chips reach it: MUBUF
//! through the private segment buffer (gfx90a), `scratch_*` instructions
//! with architected flat scratch (gfx942, gfx1100). The kernel
//! (`fixtures/isa/src/private_table.cl`, built by clang-19) fills a 48-entry
//! private array per work-item and reads it back at indices from memory;
//! the expected values follow from the source, not from the interpreter.

mod fixture;

use amdgpu_isa::Regions;
use amdgpu_isa::{Chip, Dispatch, Inputs, MAX_WAVE_INSTRUCTIONS, run_dispatch};
use fixture::{kernel, words};

const OUT: u64 = 0x10_0000;
const INDEX: u64 = 0x20_0000;
const ITEMS: usize = 128;
const SCALE: i32 = 3;

#[test]
fn private_arrays_hold_each_work_items_values_on_every_chip() {
    for chip in [Chip::Gfx90a, Chip::Gfx942, Chip::Gfx1100] {
        let (program, descriptor, kernarg_size) = kernel("private_table", chip);
        assert!(
            descriptor.private_segment_fixed_size >= 192,
            "{chip:?}: no scratch"
        );
        let index: Vec<i32> = (0..ITEMS as i32).map(|i| (i * 37 + 5) % 1000).collect();
        let mut memory = Regions::new(vec![
            (OUT, vec![0; ITEMS * 4]),
            (INDEX, index.iter().flat_map(|v| v.to_le_bytes()).collect()),
        ]);
        let mut kernargs = vec![0u8; kernarg_size as usize];
        kernargs[0..8].copy_from_slice(&OUT.to_le_bytes());
        kernargs[8..16].copy_from_slice(&INDEX.to_le_bytes());
        kernargs[16..20].copy_from_slice(&SCALE.to_le_bytes());
        let dispatch = Dispatch {
            program: &program,
            descriptor,
            grid_size: [ITEMS as u32, 1, 1],
            block: [64, 1, 1],
            dynamic_lds: 0,
            inputs: Inputs::Packet {
                kernel_object: 0x1000,
                kernarg_address: 0x30_0000,
                kernargs: &kernargs,
                packet_address: 0x40_0000,
            },
            instruction_limit: MAX_WAVE_INSTRUCTIONS,
        };
        run_dispatch(&dispatch, &mut memory).unwrap_or_else(|e| panic!("{chip:?}: {e}"));
        for (id, word) in words(&memory, OUT).into_iter().enumerate() {
            let got = word as i32;
            // table[i] = id * scale + i.
            let entry = |i: i32| id as i32 * SCALE + i;
            let want = entry(index[id] % 48) + entry((index[id] + 7) % 48);
            assert_eq!(got, want, "{chip:?}: work-item {id}");
        }
    }
}
