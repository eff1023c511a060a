//! Enumerate the GPU agents of a simulated node and group them.
//!
//! `cargo run --example enumerate_devices [MACHINE]` (a preset such as
//! `mi250x-4`, or a machine `.toml`; default `mi300x-8`): lists each GPU
//! agent, builds IREE's device group over all of them and prints each
//! pair's link class and copy cost and each device's peer bitmap.

use std::sync::Arc;

use amdgpu_hal::amdgpu::device::create_gpu_agent_group;
use amdgpu_hal::backend::{Backend, CallResultExt};
use amdgpu_hal::device::FrontierTracker;
use amdgpu_hal::group::report::link_code;

fn main() -> amdgpu_hal::Result<()> {
    run(std::env::args().skip(1))
}

/// The example with its command-line arguments (`[MACHINE]`) given
/// explicitly, so its tests do not read the test harness's own arguments.
fn run(args: impl IntoIterator<Item = String>) -> amdgpu_hal::Result<()> {
    let machine = args
        .into_iter()
        .next()
        .unwrap_or_else(|| "mi300x-8".to_owned());
    let backend = Backend::sim(&machine)?;
    let hsa = backend.hsa_arc()?;
    hsa.init().call_status("hsa_init")?;

    let group = create_gpu_agent_group(&hsa, Arc::new(FrontierTracker::default()))?;
    let topology = group.topology();
    println!("{machine}: {} GPU devices", group.device_count());
    for (i, device) in group.devices().iter().enumerate() {
        let info = device
            .topology_info()
            .expect("a finalized group assigns every device its topology info");
        println!(
            "  GPU{i} {} numa {} can_p2p_with 0x{:08x}",
            device.id(),
            topology.numa_node(i).unwrap_or(0),
            info.can_p2p_with
        );
    }
    for i in 0..group.device_count() {
        let row: Vec<String> = (0..group.device_count())
            .filter(|&j| j != i)
            .filter_map(|j| {
                let edge = topology.edge(i, j)?;
                Some(format!(
                    "GPU{j}:{}/{}",
                    link_code(edge.link_class()),
                    edge.copy_cost()
                ))
            })
            .collect();
        println!("  GPU{i} -> {}", row.join(" "));
    }

    // Devices and topology go first, then the runtime.
    drop(group);
    hsa.shut_down().call_status("hsa_shut_down")
}

#[cfg(test)]
mod tests {
    use amdgpu_hal::StatusCode;

    /// `cargo test` runs the example as written (from the package root),
    /// with its default machine and with one named.
    #[test]
    fn example_runs() {
        super::run(Vec::new()).unwrap();
        super::run(["mi250x-4".to_owned()]).unwrap();
    }

    #[test]
    fn an_unknown_machine_is_an_error() {
        let status = super::run(["no-such-machine".to_owned()]).unwrap_err();
        assert_eq!(status.code(), StatusCode::NotFound, "{status}");
        assert!(status.mentions("no-such-machine"), "{status}");
    }
}
