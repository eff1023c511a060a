//! Scratch (private) memory, the three ways the chips reach it: MUBUF
//! through the private segment buffer (gfx90a), `scratch_*` instructions
//! with architected flat scratch (gfx942, gfx1100). The kernel
//! (`fixtures/isa/src/private_table.cl`, built by clang-19) fills a 48-entry
//! private array per work-item and reads it back at indices from memory;
//! the expected values follow from the source, not from the interpreter.

use amdgpu_isa::{
    Chip, Dispatch, Inputs, KernelDescriptor, MAX_WAVE_INSTRUCTIONS, Memory, OutOfBounds, Program,
    run_dispatch,
};
use goblin::elf::Elf;

const OUT: u64 = 0x10_0000;
const INDEX: u64 = 0x20_0000;
const ITEMS: usize = 128;
const SCALE: i32 = 3;

struct Buffers {
    out: Vec<u8>,
    index: Vec<u8>,
}

impl Buffers {
    fn slice(&mut self, address: u64, len: usize) -> Result<&mut [u8], OutOfBounds> {
        for (base, bytes) in [(OUT, &mut self.out), (INDEX, &mut self.index)] {
            if let Some(start) = address.checked_sub(base)
                && let Some(s) = bytes.get_mut(start as usize..start as usize + len)
            {
                return Ok(s);
            }
        }
        Err(OutOfBounds)
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
        "{}/../fixtures/isa/private_table.{}.hsaco",
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
        let section = &elf.section_headers[symbol("private_table").st_shndx];
        let _ = section;
        let h = elf
            .section_headers
            .iter()
            .find(|h| value >= h.sh_addr && value < h.sh_addr + h.sh_size)
            .unwrap();
        let offset = (h.sh_offset + value - h.sh_addr) as usize;
        bytes[offset..offset + size as usize].to_vec()
    };
    let f = symbol("private_table");
    let kd = symbol("private_table.kd");
    let program = Program::decode(chip, &at(f.st_value, f.st_size)).unwrap();
    let descriptor = KernelDescriptor::parse(&at(kd.st_value, 64)).unwrap();
    let kernarg_size = u32::from_le_bytes(at(kd.st_value + 8, 4).try_into().unwrap());
    (program, descriptor, kernarg_size)
}

#[test]
fn private_arrays_hold_each_work_items_values_on_every_chip() {
    for chip in [Chip::Gfx90a, Chip::Gfx942, Chip::Gfx1100] {
        let (program, descriptor, kernarg_size) = kernel(chip);
        assert!(
            descriptor.private_segment_fixed_size >= 192,
            "{chip:?}: no scratch"
        );
        let index: Vec<i32> = (0..ITEMS as i32).map(|i| (i * 37 + 5) % 1000).collect();
        let mut memory = Buffers {
            out: vec![0; ITEMS * 4],
            index: index.iter().flat_map(|v| v.to_le_bytes()).collect(),
        };
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
        for (id, chunk) in memory.out.chunks_exact(4).enumerate() {
            let got = i32::from_le_bytes(chunk.try_into().unwrap());
            // table[i] = id * scale + i.
            let entry = |i: i32| id as i32 * SCALE + i;
            let want = entry(index[id] % 48) + entry((index[id] + 7) % 48);
            assert_eq!(got, want, "{chip:?}: work-item {id}");
        }
    }
}
