//! Metadata decoding cost for 100, 1,000 and 10,000 kernels.
//!
//! The MessagePack is synthetic but shaped like clang-19's COV5 output: each
//! kernel has the 20 keys LLVM emits and 12 arguments (4 explicit, 8 hidden),
//! about 1 KiB per kernel, so 10,000 kernels are a ~10 MB note.
//!
//! Two groups: `metadata` in wall time (criterion's default) and
//! `metadata_cpu` in this thread's CPU time, which a busy shared machine
//! (preemption) does not inflate. Run briefly with
//! `cargo bench --bench metadata -- --warm-up-time 1 --measurement-time 3`.

use amdgpu_hal::codeobj::metadata::CodeObjectMetadata;
use std::time::Duration;

use criterion::measurement::{Measurement, ValueFormatter};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rmp::encode::{write_array_len, write_bool, write_map_len, write_str, write_uint};
use rustix::time::{ClockId, clock_gettime};

fn field(out: &mut Vec<u8>, key: &str, value: u64) {
    write_str(out, key).unwrap();
    write_uint(out, value).unwrap();
}

fn text(out: &mut Vec<u8>, key: &str, value: &str) {
    write_str(out, key).unwrap();
    write_str(out, value).unwrap();
}

fn arg(out: &mut Vec<u8>, name: Option<&str>, offset: u64, size: u64, kind: &str) {
    write_map_len(out, if name.is_some() { 6 } else { 3 }).unwrap();
    if let Some(name) = name {
        text(out, ".name", name);
        text(out, ".type_name", "float*");
        text(out, ".address_space", "global");
    }
    field(out, ".offset", offset);
    field(out, ".size", size);
    text(out, ".value_kind", kind);
}

/// A metadata blob with `count` kernels.
fn synthetic_metadata(count: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(count * 1100);
    write_map_len(&mut out, 3).unwrap();
    write_str(&mut out, "amdhsa.kernels").unwrap();
    write_array_len(&mut out, count as u32).unwrap();
    for index in 0..count {
        let name = format!("dispatch_{index}_elementwise_f32");
        write_map_len(&mut out, 20).unwrap();
        write_str(&mut out, ".args").unwrap();
        write_array_len(&mut out, 12).unwrap();
        for (slot, arg_name) in ["lhs", "rhs", "out"].iter().enumerate() {
            arg(
                &mut out,
                Some(arg_name),
                slot as u64 * 8,
                8,
                "global_buffer",
            );
        }
        arg(&mut out, Some("n"), 24, 4, "by_value");
        let hidden = [
            (32, 4, "hidden_block_count_x"),
            (36, 4, "hidden_block_count_y"),
            (40, 4, "hidden_block_count_z"),
            (44, 2, "hidden_group_size_x"),
            (46, 2, "hidden_group_size_y"),
            (48, 2, "hidden_group_size_z"),
            (72, 8, "hidden_global_offset_x"),
            (96, 2, "hidden_grid_dims"),
        ];
        for (offset, size, kind) in hidden {
            arg(&mut out, None, offset, size, kind);
        }
        field(&mut out, ".agpr_count", 0);
        field(&mut out, ".group_segment_fixed_size", 0);
        field(&mut out, ".kernarg_segment_align", 8);
        field(&mut out, ".kernarg_segment_size", 288);
        text(&mut out, ".language", "OpenCL C");
        write_str(&mut out, ".language_version").unwrap();
        write_array_len(&mut out, 2).unwrap();
        write_uint(&mut out, 2).unwrap();
        write_uint(&mut out, 0).unwrap();
        field(&mut out, ".max_flat_workgroup_size", 256);
        text(&mut out, ".name", &name);
        field(&mut out, ".private_segment_fixed_size", 0);
        write_str(&mut out, ".reqd_workgroup_size").unwrap();
        write_array_len(&mut out, 3).unwrap();
        for dim in [64, 1, 1] {
            write_uint(&mut out, dim).unwrap();
        }
        field(&mut out, ".sgpr_count", 18);
        field(&mut out, ".sgpr_spill_count", 0);
        text(&mut out, ".symbol", &format!("{name}.kd"));
        write_str(&mut out, ".uses_dynamic_stack").unwrap();
        write_bool(&mut out, false).unwrap();
        field(&mut out, ".vgpr_count", 6);
        field(&mut out, ".vgpr_spill_count", 0);
        field(&mut out, ".wavefront_size", 64);
        field(&mut out, ".workgroup_processor_mode", 1);
        write_str(&mut out, ".vec_type_hint").unwrap();
        write_str(&mut out, "float").unwrap();
    }
    text(
        &mut out,
        "amdhsa.target",
        "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-",
    );
    write_str(&mut out, "amdhsa.version").unwrap();
    write_array_len(&mut out, 2).unwrap();
    write_uint(&mut out, 1).unwrap();
    write_uint(&mut out, 2).unwrap();
    out
}

/// CPU time consumed by the benchmarking thread (`CLOCK_THREAD_CPUTIME_ID`).
struct ThreadCpuTime;

fn thread_cpu_now() -> Duration {
    let now = clock_gettime(ClockId::ThreadCPUTime);
    Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}

impl Measurement for ThreadCpuTime {
    type Intermediate = Duration;
    type Value = Duration;

    fn start(&self) -> Duration {
        thread_cpu_now()
    }
    fn end(&self, start: Duration) -> Duration {
        thread_cpu_now().saturating_sub(start)
    }
    fn add(&self, a: &Duration, b: &Duration) -> Duration {
        *a + *b
    }
    fn zero(&self) -> Duration {
        Duration::ZERO
    }
    fn to_f64(&self, value: &Duration) -> f64 {
        value.as_nanos() as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        &CpuFormatter
    }
}

/// Formats nanoseconds of CPU time like criterion's wall-time formatter.
struct CpuFormatter;

impl ValueFormatter for CpuFormatter {
    fn scale_values(&self, ns: f64, values: &mut [f64]) -> &'static str {
        let (factor, unit) = match ns {
            ns if ns < 1e3 => (1.0, "ns"),
            ns if ns < 1e6 => (1e-3, "µs"),
            ns if ns < 1e9 => (1e-6, "ms"),
            _ => (1e-9, "s"),
        };
        values.iter_mut().for_each(|value| *value *= factor);
        unit
    }

    fn scale_throughputs(
        &self,
        _typical: f64,
        throughput: &Throughput,
        values: &mut [f64],
    ) -> &'static str {
        let (per_iteration, unit, scale) = match *throughput {
            Throughput::Bytes(bytes) | Throughput::BytesDecimal(bytes) => {
                (bytes as f64, "MiB/s", 1.0 / (1024.0 * 1024.0))
            }
            Throughput::Bits(bits) => (bits as f64, "Mbit/s", 1e-6),
            Throughput::Elements(elements) | Throughput::ElementsAndBytes { elements, .. } => {
                (elements as f64, "Kelem/s", 1e-3)
            }
        };
        values
            .iter_mut()
            .for_each(|ns| *ns = per_iteration / (*ns * 1e-9) * scale);
        unit
    }

    fn scale_for_machines(&self, _values: &mut [f64]) -> &'static str {
        "ns"
    }
}

fn bench_metadata<M: Measurement>(c: &mut Criterion<M>, name: &str) {
    let mut group = c.benchmark_group(name);
    for count in [100usize, 1_000, 10_000] {
        let blob = synthetic_metadata(count);
        let parsed = CodeObjectMetadata::from_msgpack(&blob).unwrap();
        assert_eq!(parsed.kernels.len(), count);
        group.throughput(Throughput::Bytes(blob.len() as u64));
        group.bench_with_input(BenchmarkId::new("decode", count), &blob, |b, blob| {
            b.iter(|| CodeObjectMetadata::from_msgpack(std::hint::black_box(blob)).unwrap())
        });
        let symbols: Vec<String> = (0..count)
            .map(|index| format!("dispatch_{index}_elementwise_f32.kd"))
            .collect();
        group.throughput(Throughput::Elements(count as u64));
        group.bench_with_input(
            BenchmarkId::new("lookup_and_project_all", count),
            &symbols,
            |b, symbols| {
                b.iter(|| {
                    for symbol in symbols {
                        let kernel = parsed.find_kernel_by_symbol(symbol).unwrap();
                        std::hint::black_box(kernel.default_export_parameters().unwrap());
                    }
                })
            },
        );
    }
    group.finish();
}

fn wall_time(c: &mut Criterion) {
    bench_metadata(c, "metadata");
}

fn cpu_time(c: &mut Criterion<ThreadCpuTime>) {
    bench_metadata(c, "metadata_cpu");
}

criterion_group!(wall, wall_time);
criterion_group! {
    name = cpu;
    config = Criterion::default().with_measurement(ThreadCpuTime);
    targets = cpu_time
}
criterion_main!(wall, cpu);
