//! The ISA interpreter's speed in wave-instructions per second on one core
//! (criterion's throughput: one "element" is one wave-instruction), on two
//! real IREE kernels for gfx942 executed over plain host memory:
//!
//! - ALU-heavy: `f32_trig` dispatch 0 (`math.sin` over 1,024 f32; IREE's
//!   polynomial range reduction, ~250 VALU instructions per element group),
//!   from `fixtures/kernels/vmfb/f32_trig.gfx942.vmfb`;
//! - memory-heavy: `elementwise` (`a * b + a` over 4,096 f32: buffer loads
//!   and stores of 16 bytes per lane around two multiplies), from
//!   `fixtures/iree/elementwise.gfx942.hsaco`.

use std::hint::black_box;

use amdgpu_isa::{Chip, Dispatch, Inputs, KernelDescriptor, Program, Regions, run_dispatch};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use goblin::elf::Elf;

/// The first code object inside `bytes` (a vmfb embeds its HSACO).
fn code_object(bytes: &[u8]) -> &[u8] {
    let at = bytes
        .windows(4)
        .position(|w| w == b"\x7fELF")
        .expect("an ELF");
    &bytes[at..]
}

/// Kernel `name` of the code object: decoded program and descriptor.
fn kernel(elf_bytes: &[u8], name: &str) -> (Program, KernelDescriptor) {
    let elf = Elf::parse(elf_bytes).expect("ELF");
    let symbol = |wanted: &str| {
        elf.dynsyms
            .iter()
            .find(|s| elf.dynstrtab.get_at(s.st_name) == Some(wanted))
            .unwrap_or_else(|| panic!("symbol {wanted}"))
    };
    let bytes_at = |value: u64, size: u64| {
        let section = elf
            .section_headers
            .iter()
            .find(|h| value >= h.sh_addr && value < h.sh_addr + h.sh_size)
            .expect("section");
        let offset = (section.sh_offset + value - section.sh_addr) as usize;
        &elf_bytes[offset..offset + size as usize]
    };
    let function = symbol(name);
    let kd = symbol(&format!("{name}.kd"));
    let program = Program::decode(Chip::Gfx942, bytes_at(function.st_value, function.st_size))
        .expect("decodes");
    let descriptor = KernelDescriptor::parse(bytes_at(kd.st_value, 64)).expect("descriptor");
    (program, descriptor)
}

fn bench_kernel(
    c: &mut Criterion,
    label: &str,
    (program, descriptor): (Program, KernelDescriptor),
    buffers: usize,
    grid: u32,
) {
    let bases: Vec<u64> = (0..buffers)
        .map(|i| 0x1000_0000_0000 + (i as u64) * 0x100_0000)
        .collect();
    let mut memory = Regions::new(bases.iter().map(|&a| (a, vec![0x3fu8; 64 << 10])).collect());
    let kernargs: Vec<u8> = bases.iter().flat_map(|a| a.to_le_bytes()).collect();
    let dispatch = Dispatch {
        program: &program,
        descriptor,
        grid_size: [grid * 64, 1, 1],
        block: [64, 1, 1],
        dynamic_lds: 0,
        inputs: Inputs::Packet {
            kernel_object: 0x2000_0000_0000,
            kernarg_address: 0x3000_0000_0000,
            kernargs: &kernargs,
            packet_address: 0x4000_0000_0000,
        },
        instruction_limit: amdgpu_isa::MAX_WAVE_INSTRUCTIONS,
    };
    let instructions = run_dispatch(&dispatch, &mut memory)
        .expect("runs")
        .instructions;
    let mut group = c.benchmark_group("isa");
    group.throughput(Throughput::Elements(instructions));
    group.bench_function(label, |b| {
        b.iter(|| black_box(run_dispatch(&dispatch, &mut memory).unwrap()))
    });
    group.finish();
}

fn benches(c: &mut Criterion) {
    let root = env!("CARGO_MANIFEST_DIR");
    let trig = std::fs::read(format!("{root}/fixtures/kernels/vmfb/f32_trig.gfx942.vmfb")).unwrap();
    bench_kernel(
        c,
        "ALU-heavy: f32_trig sin over 1,024 f32 (gfx942)",
        kernel(
            code_object(&trig),
            "f32_trig_dispatch_0_elementwise_1024_f32",
        ),
        2,
        4,
    );
    let elementwise =
        std::fs::read(format!("{root}/fixtures/iree/elementwise.gfx942.hsaco")).unwrap();
    bench_kernel(
        c,
        "memory-heavy: elementwise a*b+a over 4,096 f32 (gfx942)",
        kernel(&elementwise, "elementwise_dispatch_0_elementwise_4096_f32"),
        3,
        16,
    );
}

criterion_group! {
    name = isa;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(3));
    targets = benches
}
criterion_main!(isa);
