//! Issue 12's benches that the other files do not cover, on real clang-19
//! code objects: target-ID parse and compatibility, ELF + metadata parse
//! (`plan_raw_hsaco`) and `inspect` of 1,000- and 10,000-kernel HSACOs, full
//! executable creation on the simulated 8×MI300X node (all eight devices and
//! one), and reflection lookups by export name.
//!
//! The large code objects come from `fixtures/large/generate.sh` (cached
//! under `target/large-fixtures`; generated on first use, about a minute per
//! 10,000 kernels). Without clang-19 the cases that need them are skipped
//! with a message; the target-ID cases always run.

use std::hint::black_box;
use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use amdgpu_hal::amdgpu::agents::{AgentTopology, DEFAULT_GPU_AGENT_QUEUE_COUNT};
use amdgpu_hal::amdgpu::executable::plan::plan_raw_hsaco;
use amdgpu_hal::amdgpu::executable::{ExecutableParams, create};
use amdgpu_hal::amdgpu::profile::ProfileRegistry;
use amdgpu_hal::amdgpu::queue_affinity::{QUEUE_AFFINITY_ANY, QueueAffinity};
use amdgpu_hal::backend::Backend;
use amdgpu_hal::codeobj::target_id::check_compatible;
use amdgpu_hal::codeobj::{ParseFlags, TargetId};
use amdgpu_hal::report::inspect::inspect;
use amdgpu_hal::wrapped::{DataExtent, DeviceLimits, infer_format};
use amdgpu_sim::Sim;
use criterion::{BatchSize, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

/// Kernel counts of the generated code objects these benches use.
const COUNTS: [usize; 2] = [1_000, 10_000];

/// The cached large HSACO with `count` kernels, generating it when missing;
/// `None` (after a message) when it cannot be made here.
fn large_hsaco(count: usize) -> Option<Vec<u8>> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let path = root.join(format!(
        "target/large-fixtures/kernels_{count}.gfx942.hsaco"
    ));
    if !path.exists() {
        let status = Command::new(root.join("fixtures/large/generate.sh"))
            .arg(count.to_string())
            .status();
        if !matches!(status, Ok(s) if s.success()) {
            eprintln!("fixtures/large/generate.sh {count} failed: {status:?}");
        }
    }
    match std::fs::read(&path) {
        Ok(data) => Some(data),
        Err(e) => {
            eprintln!(
                "skipping the {count}-kernel cases: {} unavailable ({e}); needs clang-19 and lld-19",
                path.display()
            );
            None
        }
    }
}

fn target_ids(c: &mut Criterion) {
    let mut group = c.benchmark_group("target_id");
    let full = "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-";
    group.bench_function("parse/amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-", |b| {
        b.iter(|| TargetId::parse(black_box(full), ParseFlags::all()))
    });
    group.bench_function("parse/gfx11-generic", |b| {
        b.iter(|| TargetId::parse(black_box("gfx11-generic"), ParseFlags::all()))
    });
    let agent = TargetId::parse(full, ParseFlags::all()).expect("agent");
    let exact = TargetId::parse("gfx942:xnack-", ParseFlags::all()).expect("exact");
    let generic = TargetId::parse("gfx9-4-generic", ParseFlags::all());
    group.bench_function("compatible/gfx942:xnack- on gfx942:sramecc+:xnack-", |b| {
        b.iter(|| check_compatible(black_box(&exact), black_box(&agent)))
    });
    if let Ok(generic) = generic {
        group.bench_function("compatible/gfx9-4-generic on gfx942:sramecc+:xnack-", |b| {
            b.iter(|| check_compatible(black_box(&generic), black_box(&agent)))
        });
    }
    group.finish();
}

fn parsing(c: &mut Criterion, inputs: &[(usize, Vec<u8>)]) {
    let mut group = c.benchmark_group("large_hsaco");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    let limits = DeviceLimits::AMDGPU;
    for (count, data) in inputs {
        group.throughput(Throughput::Elements(*count as u64));
        group.bench_with_input(BenchmarkId::new("elf+metadata", count), data, |b, data| {
            b.iter(|| plan_raw_hsaco(data, &limits).expect("plan"))
        });
        group.bench_with_input(BenchmarkId::new("inspect", count), data, |b, data| {
            b.iter(|| inspect(data, &limits, &()).expect("inspect"))
        });
    }
    group.finish();
}

/// A fresh simulated 8×MI300X node, initialized, and its HAL topology.
fn mi300x() -> (Backend, AgentTopology) {
    let sim = Arc::new(
        Sim::preset("mi300x-8")
            .expect("preset")
            .expect("known preset"),
    );
    // Creation is measured, not the simulator's text log of every call.
    sim.set_call_log(false);
    let backend = Backend::from_sim(sim, "mi300x-8");
    backend.hsa().unwrap().init().expect("hsa_init");
    let topology =
        AgentTopology::from_backend(backend.hsa().unwrap(), DEFAULT_GPU_AGENT_QUEUE_COUNT)
            .expect("topology");
    (backend, topology)
}

fn creation(c: &mut Criterion, inputs: &[(usize, Vec<u8>)]) {
    let mut group = c.benchmark_group("create_mi300x_8");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(4));
    // Queue 0 and 1 are device 0's (two queues per GPU agent).
    let one_device: QueueAffinity = (1 << DEFAULT_GPU_AGENT_QUEUE_COUNT) - 1;
    for (count, data) in inputs {
        let format = infer_format(data, DataExtent::Known)
            .expect("format")
            .format;
        for (label, affinity) in [
            ("all_devices", QUEUE_AFFINITY_ANY),
            ("one_device", one_device),
        ] {
            let params = ExecutableParams {
                executable_format: &format,
                executable_data: data,
                queue_affinity: affinity,
                constant_count: 0,
            };
            group.throughput(Throughput::Elements(*count as u64));
            group.bench_with_input(BenchmarkId::new(label, count), &params, |b, params| {
                // A fresh node per iteration: the simulator's call log and
                // never-reused addresses would otherwise grow across samples.
                b.iter_batched(
                    mi300x,
                    |(backend, topology)| {
                        let exe = create(
                            backend.hsa_arc().unwrap(),
                            &topology,
                            params,
                            &ProfileRegistry::new(),
                        )
                        .expect("create");
                        (exe, backend)
                    },
                    BatchSize::PerIteration,
                );
            });
        }
    }
    group.finish();
}

fn reflection(c: &mut Criterion, inputs: &[(usize, Vec<u8>)]) {
    let Some((count, data)) = inputs.last() else {
        return;
    };
    let (backend, topology) = mi300x();
    let format = infer_format(data, DataExtent::Known)
        .expect("format")
        .format;
    let params = ExecutableParams {
        executable_format: &format,
        executable_data: data,
        queue_affinity: QUEUE_AFFINITY_ANY,
        constant_count: 0,
    };
    let exe = create(
        backend.hsa_arc().unwrap(),
        &topology,
        &params,
        &ProfileRegistry::new(),
    )
    .expect("create");
    // 1,024 names spread over the whole table (kernel `k{i}`, export `k{i}`).
    let names: Vec<String> = (0..1024)
        .map(|i| format!("k{}", i * count / 1024))
        .collect();
    let mut group = c.benchmark_group("reflection");
    group.throughput(Throughput::Elements(names.len() as u64));
    group.bench_function(
        BenchmarkId::new("lookup_export_by_name_x1024", count),
        |b| {
            b.iter(|| {
                let mut sum = 0u64;
                for name in &names {
                    sum += u64::from(exe.lookup_export_by_name(name).expect("export"));
                }
                sum
            })
        },
    );
    group.bench_function(BenchmarkId::new("export_info_x1024", count), |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for i in 0..1024u64 {
                let info = exe.export_info(i * *count as u64 / 1024).expect("info");
                sum += u64::from(info.binding_count);
            }
            sum
        })
    });
    group.finish();
}

fn benches(c: &mut Criterion) {
    target_ids(c);
    let inputs: Vec<(usize, Vec<u8>)> = COUNTS
        .iter()
        .filter_map(|&n| large_hsaco(n).map(|data| (n, data)))
        .collect();
    parsing(c, &inputs);
    creation(c, &inputs);
    reflection(c, &inputs);
}

criterion_group!(group, benches);
criterion_main!(group);
