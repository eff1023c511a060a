//! Topology hot paths: edge query, peer-bitmap check, 32-device group creation.

use std::hint::black_box;
use std::sync::Arc;

use amdgpu_hal::amdgpu::device::create_gpu_agent_group;
use amdgpu_hal::backend::Backend;
use amdgpu_hal::device::testing::MockDevice;
use amdgpu_hal::device::{FrontierTracker, HalDevice};
use amdgpu_hal::group::DeviceGroupBuilder;
use amdgpu_hal::topology::{
    DeviceCapabilities, DeviceCapabilityFlags, HandleTypes, MAX_DEVICE_COUNT, SlitTable,
};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

const QUERIES: usize = 1024;

fn devices() -> Vec<Arc<dyn HalDevice>> {
    (0..MAX_DEVICE_COUNT)
        .map(|i| {
            let caps = DeviceCapabilities {
                flags: DeviceCapabilityFlags::P2P_COPY | DeviceCapabilityFlags::PEER_ADDRESSABLE,
                semaphore_export_types: HandleTypes::NATIVE,
                semaphore_import_types: HandleTypes::NATIVE,
                numa_node: (i / 16) as u8,
                ..Default::default()
            };
            MockDevice::new("mock").with_capabilities(caps).into_dyn()
        })
        .collect()
}

fn builder(devices: &[Arc<dyn HalDevice>]) -> DeviceGroupBuilder {
    let mut b = DeviceGroupBuilder::new(Arc::new(FrontierTracker::default()))
        .with_numa_distances(Arc::new(SlitTable::uniform(2, 10, 32)));
    for d in devices {
        b.add_device(Arc::clone(d))
            .expect("32 distinct devices fit");
    }
    b
}

fn bench(c: &mut Criterion) {
    let devices = devices();
    let group = builder(&devices).finalize().expect("group builds");
    let topology = Arc::clone(group.topology());
    let info = devices[3].topology_info().expect("assigned");

    // 1024 queries per iteration over every (src, dst) pair, so the
    // per-iteration harness overhead does not dominate a ~1 ns operation.
    let pairs: Vec<(usize, usize)> = (0..QUERIES)
        .map(|k| ((k * 7) % 32, (k * 13 + 5) % 32))
        .collect();
    let mut edges = c.benchmark_group("topology");
    edges.throughput(Throughput::Elements(QUERIES as u64));
    edges.bench_function("edge_query_x1024", |b| {
        b.iter(|| {
            let t = black_box(&topology);
            let mut sum = 0u64;
            for &(src, dst) in black_box(&pairs) {
                sum = sum.wrapping_add(t.edge(src, dst).map_or(0, |e| e.lo));
            }
            sum
        })
    });
    edges.bench_function("bitmap_check_x1024", |b| {
        b.iter(|| {
            let info = black_box(&info);
            let mut count = 0u32;
            for &(_, peer) in black_box(&pairs) {
                count += u32::from(info.can_p2p_with & (1 << peer) != 0);
            }
            count
        })
    });
    edges.finish();
    c.bench_function("topology/group_create_32", |b| {
        b.iter(|| builder(&devices).finalize().expect("group builds"))
    });
    // The whole path on a simulated MI300X node: 8 AMDGPU devices, every
    // capability and link query through the backend trait.
    let backend = Backend::sim("mi300x-8").expect("preset loads");
    backend.hsa().unwrap().init().expect("hsa_init");
    let hsa = backend.hsa_arc().unwrap();
    c.bench_function("topology/amdgpu_group_mi300x_8", |b| {
        b.iter(|| {
            create_gpu_agent_group(&hsa, Arc::new(FrontierTracker::default()))
                .expect("group builds")
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
