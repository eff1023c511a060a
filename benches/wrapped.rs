//! Verify + infer of wrapped executables: IREE-compiled ones from
//! `fixtures/iree/` and a synthetic one with 10,000 exports.
//!
//! `cargo bench --bench wrapped` (short runs; figures in docs/PERFORMANCE.md).

use std::hint::black_box;
use std::time::Duration;

use amdgpu_hal::report::inspect::inspect;
use amdgpu_hal::wrapped::builder::{BindingBits, ExecutableSpec, ExportSpec, build_amd1};
use amdgpu_hal::wrapped::{
    Amd1Executable, DataExtent, DeviceLimits, PackOptions, infer_format, pack,
};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

const FIXTURES: &[(&str, &[u8])] = &[
    (
        "elementwise.gfx942",
        include_bytes!("../fixtures/iree/elementwise.gfx942.amd1"),
    ),
    (
        "matmul.gfx90a",
        include_bytes!("../fixtures/iree/matmul.gfx90a.amd1"),
    ),
    (
        "multi_dispatch.gfx1100",
        include_bytes!("../fixtures/iree/multi_dispatch.gfx1100.amd1"),
    ),
];

const HSACO: &[u8] = include_bytes!("../fixtures/iree/multi_dispatch.gfx942.hsaco");

/// A wrapped executable of `count` exports around a real gfx942 image.
fn synthetic(count: usize) -> Vec<u8> {
    let exports = (0..count)
        .map(|i| ExportSpec {
            symbol_name: format!("dispatch_{i}_elementwise_4096_f32.kd"),
            workgroup_size: Some([64, 1, 1]),
            constant_count: (i % 8) as u32,
            binding_flags: vec![BindingBits::INDIRECT; 1 + i % 4],
            debug: None,
        })
        .collect();
    build_amd1(&ExecutableSpec {
        isa: Some("gfx942".into()),
        exports,
        images: vec![HSACO],
        source_files: vec![],
    })
    .expect("synthetic executable builds")
}

/// Everything a loader does with the bytes before touching the device.
fn verify_and_infer(data: &[u8]) -> usize {
    let exe = Amd1Executable::parse(data, DataExtent::Known).expect("parses");
    exe.verify(&DeviceLimits::AMDGPU).expect("verifies");
    infer_format(data, DataExtent::Known).expect("infers").size
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("wrapped/verify+infer");
    group
        .sample_size(30)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    for (name, data) in FIXTURES {
        group.throughput(Throughput::Bytes(data.len() as u64));
        group.bench_function(*name, |b| b.iter(|| verify_and_infer(black_box(data))));
    }
    let big = synthetic(10_000);
    group.throughput(Throughput::Elements(10_000));
    group.bench_function("synthetic_10000_exports", |b| {
        b.iter(|| verify_and_infer(black_box(&big)))
    });
    group.finish();

    let mut group = c.benchmark_group("wrapped/tools");
    group
        .sample_size(30)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    let (_, multi) = FIXTURES[2];
    group.bench_function("inspect/multi_dispatch.gfx1100", |b| {
        b.iter(|| inspect(black_box(multi), &DeviceLimits::AMDGPU, &()).expect("inspects"))
    });
    group.bench_function("pack/multi_dispatch.gfx942", |b| {
        b.iter(|| pack(black_box(HSACO), &PackOptions::default()).expect("packs"))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
