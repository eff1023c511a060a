//! Bytes from outside never crash the interpreter: any code decodes to a
//! program or an error, and any program that decodes runs to an end, a
//! fault or the instruction limit over any kernel descriptor, grid and
//! kernarg bytes — no panic, no overflow (tests run with overflow checks),
//! no allocation beyond the named limits.

use amdgpu_isa::{Chip, Dispatch, Inputs, KernelDescriptor, Program, Regions, run_dispatch};
use proptest::prelude::*;

const CHIPS: [Chip; 4] = [Chip::Gfx90a, Chip::Gfx942, Chip::Gfx1100, Chip::Gfx1201];

/// Real instruction words from the fixtures, so that random programs are
/// mostly valid instructions rather than mostly undecodable ones (gfx1201,
/// which has no IREE code object fixture, from the kernel corpus's module,
/// whose code object is most of it).
fn seeds(chip: Chip) -> Vec<u32> {
    let root = env!("CARGO_MANIFEST_DIR");
    let path = if chip == Chip::Gfx1201 {
        format!("{root}/../fixtures/kernels/vmfb/multi_dispatch.gfx1201.vmfb")
    } else {
        format!(
            "{root}/../fixtures/iree/multi_dispatch.{}.hsaco",
            chip.name()
        )
    };
    let bytes = std::fs::read(path).expect("fixture");
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .filter(|w| *w != 0 && *w != 0xbf80_0000)
        .collect()
}

/// Decodes `words`, replacing each word that does not decode with `s_nop`
/// until the program decodes: random programs that still mostly run.
fn decodable(chip: Chip, mut words: Vec<u32>) -> Option<Program> {
    for _ in 0..words.len() + 1 {
        let code: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        match Program::decode(chip, &code) {
            Ok(program) => return Some(program),
            // s_nop 0 on both families.
            Err(e) => *words.get_mut(e.offset as usize / 4)? = 0xbf80_0000,
        }
    }
    None
}

fn run(
    program: &Program,
    descriptor: KernelDescriptor,
    grid: [u32; 3],
    block: [u32; 3],
    kernargs: &[u8],
) {
    let dispatch = Dispatch {
        program,
        descriptor,
        grid_size: std::array::from_fn(|i| grid[i] * block[i]),
        block,
        dynamic_lds: 0,
        inputs: Inputs::Packet {
            kernel_object: 0x1000,
            kernarg_address: 0x1_0000_0000,
            kernargs,
            packet_address: 0x2_0000_0000,
        },
        instruction_limit: 2_000,
    };
    let mut memory = Regions::new(vec![(0x1000, vec![0; 64 << 10])]);
    // Any outcome but a panic is correct for random code.
    let _ = run_dispatch(&dispatch, &mut memory);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3_000))]

    #[test]
    fn arbitrary_bytes_decode_or_fail(chip in 0usize..CHIPS.len(), code in proptest::collection::vec(any::<u8>(), 0..512)) {
        let _ = Program::decode(CHIPS[chip], &code);
    }

    #[test]
    fn mutated_real_code_runs_or_faults(
        chip in 0usize..CHIPS.len(),
        picks in proptest::collection::vec((any::<usize>(), any::<u32>(), 0u8..10), 1..96),
        lds in 0u32..=65536,
        rsrc in proptest::array::uniform3(any::<u32>()),
        properties in any::<u16>(),
        grid in proptest::array::uniform3(1u32..4),
        block in proptest::array::uniform3(1u32..80),
        kernargs in proptest::collection::vec(any::<u8>(), 0..64),
    ) {
        let chip = CHIPS[chip];
        let seeds = seeds(chip);
        // Real words, some with bits flipped or replaced, ending in s_endpgm.
        let mut words: Vec<u32> = picks
            .iter()
            .map(|&(i, bits, mode)| {
                let word = seeds[i % seeds.len()];
                match mode {
                    0 => bits,
                    1 => word ^ (bits & 0x0001_ffff),
                    _ => word,
                }
            })
            .collect();
        // s_endpgm.
        words.push(if matches!(chip, Chip::Gfx1100 | Chip::Gfx1201) {
            0xbfb0_0000
        } else {
            0xbf81_0000
        });
        let Some(program) = decodable(chip, words) else {
            return Ok(());
        };
        let mut kd = [0u8; 64];
        kd[0..4].copy_from_slice(&lds.to_le_bytes());
        kd[44..48].copy_from_slice(&rsrc[2].to_le_bytes());
        kd[48..52].copy_from_slice(&rsrc[0].to_le_bytes());
        kd[52..56].copy_from_slice(&rsrc[1].to_le_bytes());
        kd[56..58].copy_from_slice(&properties.to_le_bytes());
        let descriptor = KernelDescriptor::parse(&kd).unwrap();
        let block = if block.iter().map(|&b| u64::from(b)).product::<u64>() > 1024 { [64, 1, 1] } else { block };
        run(&program, descriptor, grid, block, &kernargs);
    }
}
