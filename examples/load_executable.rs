//! Inspect an IREE executable, then load it on a simulated node.
//!
//! `cargo run --example load_executable [FILE] [MACHINE]` (defaults:
//! `fixtures/iree/matmul.gfx942.amd1` on `mi300x-8`): what the file holds
//! (container, target, exports and their kernel facts), then the
//! executable created on every GPU the queue affinity selects, with each
//! export's kernel object and kernel-args table per device.

use amdgpu_hal::amdgpu::agents::{AgentTopology, DEFAULT_GPU_AGENT_QUEUE_COUNT};
use amdgpu_hal::amdgpu::executable::{ExecutableParams, create};
use amdgpu_hal::amdgpu::profile::ProfileRegistry;
use amdgpu_hal::amdgpu::queue_affinity::QUEUE_AFFINITY_ANY;
use amdgpu_hal::backend::{Backend, CallResultExt};
use amdgpu_hal::report::inspect::inspect;
use amdgpu_hal::wrapped::{DataExtent, DeviceLimits, infer::infer_format};
use amdgpu_hal::{ResultExt, Status};

fn main() -> amdgpu_hal::Result<()> {
    run(std::env::args().skip(1))
}

/// The example with its command-line arguments (`[FILE] [MACHINE]`) given
/// explicitly, so its tests do not read the test harness's own arguments.
fn run(args: impl IntoIterator<Item = String>) -> amdgpu_hal::Result<()> {
    let mut args = args.into_iter();
    let file = args
        .next()
        .unwrap_or_else(|| "fixtures/iree/matmul.gfx942.amd1".to_owned());
    let machine = args.next().unwrap_or_else(|| "mi300x-8".to_owned());
    let data =
        std::fs::read(&file).map_err(|e| Status::not_found(format!("reading `{file}`: {e}")))?;

    // 1. Inspect: no backend involved, bounded on any input.
    let report = inspect(&data, &DeviceLimits::AMDGPU, &())?;
    println!(
        "{file}: {:?} for {}, {} exports",
        report.container,
        report.format,
        report.exports.len()
    );
    for export in &report.exports {
        println!("  {} ({})", export.name, export.symbol);
    }

    // 2. Load: IREE's executable creation on the simulated node.
    let inferred = infer_format(&data, DataExtent::Known)?;
    let backend = Backend::sim(&machine)?;
    let hsa = backend.hsa()?;
    hsa.init().call_status("hsa_init")?;
    let loaded = (|| {
        let topology = AgentTopology::from_backend(hsa, DEFAULT_GPU_AGENT_QUEUE_COUNT)?;
        let params = ExecutableParams {
            executable_format: &inferred.format,
            executable_data: &data,
            queue_affinity: QUEUE_AFFINITY_ANY,
            constant_count: 0,
        };
        let exe = create(
            backend.hsa_arc()?,
            &topology,
            &params,
            &ProfileRegistry::new(),
        )
        .annotate_with(|| format!("loading `{file}` on {machine}"))?;
        println!("loaded on devices {:?}", exe.loaded_devices());
        for ordinal in 0..exe.export_count() as u64 {
            let info = exe.export_info(ordinal)?;
            println!(
                "  [{ordinal}] {} workgroup {:?}, {} bindings",
                info.name, info.workgroup_size, info.binding_count
            );
            for device in exe.loaded_devices() {
                let args = exe.kernel_args_for_device(ordinal, device)?;
                println!(
                    "      device {device}: kernel object 0x{:x}",
                    args.kernel_args.kernel_object
                );
            }
        }
        Ok(())
    })();
    Status::join_results(loaded, hsa.shut_down().call_status("hsa_shut_down"))
}

#[cfg(test)]
mod tests {
    use amdgpu_hal::StatusCode;

    /// `cargo test` runs the example as written (from the package root),
    /// with its defaults and with a raw HSACO on another machine.
    #[test]
    fn example_runs() {
        super::run(Vec::new()).unwrap();
        let hsaco = "fixtures/hsaco/vector_add.gfx90a.cov5.hsaco";
        super::run([hsaco.to_owned(), "mi250x-4".to_owned()]).unwrap();
    }

    #[test]
    fn a_missing_file_is_not_found() {
        let status = super::run(["fixtures/no-such-file.amd1".to_owned()]).unwrap_err();
        assert_eq!(status.code(), StatusCode::NotFound, "{status}");
        assert!(status.mentions("no-such-file.amd1"), "{status}");
    }
}
