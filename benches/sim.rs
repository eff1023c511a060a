//! The simulated node's hot paths: enumerating a machine the way `devices`
//! does, loading a real HSACO on every GPU of an 8×MI300X node, and an
//! allocate/copy/free round trip.

use std::hint::black_box;
use std::sync::Arc;

use amdgpu_hal::backend::{Backend, DevicePtr, DeviceType, HsaExt, Profile, RoundingMode};
use amdgpu_hal::report::devices::list_agents;
use amdgpu_sim::Sim;
use criterion::{Criterion, criterion_group, criterion_main};

const GFX942: &[u8] =
    include_bytes!("../fixtures/hsaco/vector_add.gfx942_sramecc+_xnack-.cov5.hsaco");

fn backend() -> Backend {
    let sim = Arc::new(Sim::preset("mi300x-8").unwrap().unwrap());
    Backend::from_sim(sim, "mi300x-8")
}

fn benches(c: &mut Criterion) {
    c.bench_function("machine: parse+validate mi300x-8 preset", |b| {
        b.iter(|| {
            black_box(
                amdgpu_sim::presets::load_preset("mi300x-8")
                    .unwrap()
                    .unwrap(),
            )
        })
    });

    let b8 = backend();
    c.bench_function("devices: enumerate mi300x-8 through the traits", |b| {
        b.iter(|| black_box(list_agents(&b8).unwrap()))
    });

    let node = backend();
    let hsa = node.hsa().unwrap();
    hsa.init().unwrap();
    let gpus: Vec<_> = hsa
        .iterate_agents()
        .unwrap()
        .into_iter()
        .filter(|&a| hsa.agent_device_type(a).unwrap() == DeviceType::Gpu)
        .collect();
    c.bench_function(
        "loader: load vector_add on 8 GPUs, freeze, 8 lookups, destroy",
        |b| {
            b.iter(|| {
                let reader = hsa.code_object_reader_create_from_memory(GFX942).unwrap();
                let exe = hsa
                    .executable_create_alt(Profile::Full, RoundingMode::Default)
                    .unwrap();
                for &gpu in &gpus {
                    hsa.executable_load_agent_code_object(exe, gpu, reader)
                        .unwrap();
                }
                hsa.executable_freeze(exe).unwrap();
                for &gpu in &gpus {
                    let symbol = hsa
                        .executable_get_symbol_by_name(exe, "vector_add.kd", Some(gpu))
                        .unwrap();
                    black_box(hsa.symbol_kernel_object(symbol).unwrap());
                }
                hsa.code_object_reader_destroy(reader).unwrap();
                hsa.executable_destroy(exe).unwrap();
            })
        },
    );

    let pool = hsa.agent_iterate_memory_pools(gpus[0]).unwrap()[0];
    let data = vec![7u8; 64 * 1024];
    let mut back = vec![0u8; 64 * 1024];
    c.bench_function("memory: allocate 64 KiB, copy in, copy out, free", |b| {
        b.iter(|| {
            let ptr: DevicePtr = hsa
                .memory_pool_allocate(pool, data.len() as u64, 0)
                .unwrap();
            hsa.memory_copy_to_device(ptr, &data).unwrap();
            hsa.memory_copy_from_device(&mut back, ptr).unwrap();
            hsa.memory_pool_free(ptr).unwrap();
        })
    });
}

criterion_group!(sim, benches);
criterion_main!(sim);
