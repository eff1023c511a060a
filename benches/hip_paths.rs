//! HIP device path parsing: a single UUID path, and the largest list (64
//! UUID entries) a logical device accepts.

use amdgpu_hal::hip::{DevicePath, DeviceUuid, MAX_PHYSICAL_DEVICES};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

fn paths(c: &mut Criterion) {
    let uuid = DeviceUuid(std::array::from_fn(|i| (i * 17) as u8));
    let single = uuid.path();
    let list = (0..MAX_PHYSICAL_DEVICES)
        .map(|i| {
            let mut bytes = uuid.0;
            bytes[15] = i as u8;
            DeviceUuid(bytes).path()
        })
        .collect::<Vec<_>>()
        .join(",");
    c.bench_function("hip_path_parse_uuid", |b| {
        b.iter(|| DevicePath::parse(black_box(&single)))
    });
    c.bench_function("hip_path_parse_64_uuid_list", |b| {
        b.iter(|| DevicePath::parse(black_box(&list)))
    });
    c.bench_function("hip_uuid_format", |b| b.iter(|| black_box(&uuid).path()));
}

criterion_group!(benches, paths);
criterion_main!(benches);
