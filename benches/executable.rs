//! Executable creation for 10 … 10,000 exports (synthetic raw HSACO, two
//! GPUs of a scripted backend): metadata, reflection, preflight, load, kernel
//! args, two device tables, 2 × N descriptors and the profile records.
//! Growth must be linear in the export count (no per-export scans).

#[path = "../tests/it/exec_support/mod.rs"]
mod exec_support;
/// The backend mocks `exec_support` scripts (`crate::mocks` there).
#[path = "../tests/it/mocks.rs"]
mod mocks;

use std::sync::Arc;
use std::time::Duration;

use amdgpu_hal::amdgpu::executable::{ExecutableParams, create};
use amdgpu_hal::amdgpu::profile::ProfileRegistry;
use amdgpu_hal::amdgpu::queue_affinity::QUEUE_AFFINITY_ANY;
use criterion::{BatchSize, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use exec_support::{NodeConfig, Synthetic, node, synthetic_hsaco, topology};

fn creation(c: &mut Criterion) {
    let mut group = c.benchmark_group("executable_create");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    let config = NodeConfig::uniform(2, "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-");
    let topo = topology(&config);
    for exports in [10usize, 100, 1_000, 10_000] {
        let data = synthetic_hsaco(&Synthetic {
            kernels: exports,
            target: Some("amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-"),
            reqd_workgroup_size: Some([64, 1, 1]),
        });
        let params = ExecutableParams {
            executable_format: "gfx942",
            executable_data: &data,
            queue_affinity: QUEUE_AFFINITY_ANY,
            constant_count: 0,
        };
        group.throughput(Throughput::Elements(exports as u64));
        group.bench_with_input(BenchmarkId::from_parameter(exports), &exports, |b, _| {
            b.iter_batched(
                || (Arc::new(node(config.clone()).0), ProfileRegistry::new()),
                |(hsa, registry)| create(hsa, &topo, &params, &registry).expect("create"),
                BatchSize::LargeInput,
            );
        });
    }
    group.finish();

    // The backend-independent half alone: metadata, reflection, limits.
    let mut group = c.benchmark_group("executable_plan");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    let limits = amdgpu_hal::wrapped::DeviceLimits::AMDGPU;
    for exports in [10usize, 100, 1_000, 10_000] {
        let data = synthetic_hsaco(&Synthetic {
            kernels: exports,
            target: Some("amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-"),
            reqd_workgroup_size: Some([64, 1, 1]),
        });
        group.throughput(Throughput::Elements(exports as u64));
        group.bench_with_input(BenchmarkId::from_parameter(exports), &exports, |b, _| {
            b.iter(|| {
                amdgpu_hal::amdgpu::executable::plan::plan_raw_hsaco(&data, &limits).expect("plan")
            });
        });
    }
    group.finish();
}

criterion_group!(benches, creation);
criterion_main!(benches);
