//! Fail one HSA call on purpose in the simulator and watch the cleanup.
//!
//! `cargo run --example fault_cleanup`: loads a raw HSACO on a simulated
//! MI300X node once per fault point — `hsa_executable_freeze`, then the
//! kernel-args table allocation on the third GPU — and shows the `Status`
//! the caller gets, the calls the loader made after the fault (the
//! releases), and that the simulator has no object left live.

use std::sync::Arc;

use amdgpu_hal::amdgpu::agents::{AgentTopology, DEFAULT_GPU_AGENT_QUEUE_COUNT};
use amdgpu_hal::amdgpu::executable::{ExecutableParams, create};
use amdgpu_hal::amdgpu::profile::ProfileRegistry;
use amdgpu_hal::amdgpu::queue_affinity::QUEUE_AFFINITY_ANY;
use amdgpu_hal::backend::sim::load_machine;
use amdgpu_hal::backend::{Backend, CallResultExt};
use amdgpu_sim::{Fault, HsaCode, Sim};

const HSACO: &str = "fixtures/hsaco/vector_add.gfx942_sramecc+_xnack-.cov5.hsaco";

fn main() -> amdgpu_hal::Result<()> {
    let data = std::fs::read(HSACO)
        .map_err(|e| amdgpu_hal::Status::not_found(format!("reading `{HSACO}`: {e}")))?;
    for (op, nth) in [
        ("hsa_executable_freeze", 1),
        ("hsa_amd_memory_pool_allocate", 3),
    ] {
        let sim = Arc::new(Sim::new(load_machine("mi300x-8")?));
        let backend = Backend::from_sim(Arc::clone(&sim), "mi300x-8");
        let hsa = backend.hsa()?;
        hsa.init().call_status("hsa_init")?;
        let topology = AgentTopology::from_backend(hsa, DEFAULT_GPU_AGENT_QUEUE_COUNT)?;

        sim.inject_hsa(Fault::nth_of(op, nth, HsaCode::OUT_OF_RESOURCES));
        let params = ExecutableParams {
            executable_format: "gfx942:sramecc+:xnack-",
            executable_data: &data,
            queue_affinity: QUEUE_AFFINITY_ANY,
            constant_count: 0,
        };
        let result = create(
            backend.hsa_arc()?,
            &topology,
            &params,
            &ProfileRegistry::new(),
        );
        let Err(status) = result else {
            return Err(amdgpu_hal::Status::internal(format!(
                "the injected fault at {op} #{nth} did not fail the load"
            )));
        };
        println!("fault: {op} call #{nth} -> HSA_STATUS_ERROR_OUT_OF_RESOURCES");
        println!("  caller gets: {status}");

        let (log, _) = sim.call_log();
        let fault_at = log.iter().position(|c| c.injected).unwrap_or(log.len());
        let cleanup: Vec<&str> = log
            .iter()
            .skip(fault_at + 1)
            .map(|call| call.op)
            .filter(|op| op.contains("free") || op.contains("destroy"))
            .collect();
        println!("  cleanup calls after the fault: {}", cleanup.join(", "));
        let live = sim.live_objects();
        println!("  live objects now: {live:?}");
        if !live.is_empty() {
            return Err(amdgpu_hal::Status::internal(
                "creation leaked simulator objects",
            ));
        }
        hsa.shut_down().call_status("hsa_shut_down")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    /// `cargo test` runs the example as written (from the package root).
    #[test]
    fn example_runs() {
        super::main().unwrap();
    }
}
