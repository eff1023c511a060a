//! The one simulated node behind every export, chosen by the environment
//! when a library function is first called:
//!
//! - [`MACHINE_ENV`] (`AMDGPU_SIM_MACHINE`): a preset name or a TOML/JSON
//!   machine description file (JSON when it ends in `.json`), resolved by
//!   `amdgpu_sim::presets::machine_from_env` (the `/dev/kfd` stand-in,
//!   `amdgpu-sim-kfd`, resolves it the same way);
//! - [`FAULTS_ENV`] (`AMDGPU_SIM_FAULTS`): faults armed on the node (see
//!   [`crate::spec`]);
//! - [`REPORT_ENV`] (`AMDGPU_SIM_REPORT`): a file rewritten at every
//!   `hsa_shut_down` with the live objects and the injected faults, so a
//!   test outside the process can check that nothing leaked;
//! - [`ON_FAULT_ENV`] (`AMDGPU_SIM_ON_FAULT`): whether a kernel's memory
//!   fault aborts the process, as on ROCm, or stays on its device as an
//!   error (`crate::device_fault`).
//!
//! HSA and HIP share the node when both are loaded from this one library
//! (the loader hands out one copy per process). A missing or bad variable
//! leaves no node: `hsa_init` fails like a machine without `/dev/kfd` and
//! the reason is printed once on stderr.

use std::sync::OnceLock;

use amdgpu_sim::Sim;
use amdgpu_sim::kernel_exec::{KERNELS_ENV, KernelMode};

use crate::device_fault::{ON_FAULT_ENV, OnFault};
pub use amdgpu_sim::presets::{MACHINE_ENV, load_machine};
/// Environment variable holding the fault specification.
pub const FAULTS_ENV: &str = "AMDGPU_SIM_FAULTS";
/// Environment variable that, set to `1`, prints every call on stderr;
/// set to `threads`, every call with the id of the thread making it, and
/// every stream operation as its worker runs it.
pub const TRACE_ENV: &str = "AMDGPU_SIM_TRACE";
/// Environment variable naming the report file.
pub const REPORT_ENV: &str = "AMDGPU_SIM_REPORT";

/// The node and what the C side needs besides it.
pub(crate) struct Node {
    /// The simulator, its memory process mappings at the simulated
    /// addresses (`mapped_store`).
    pub(crate) sim: Sim,
    report: Option<String>,
    /// What a kernel's memory fault does ([`ON_FAULT_ENV`]).
    pub(crate) on_fault: OnFault,
}

static NODE: OnceLock<Result<Node, String>> = OnceLock::new();

/// The node, created from the environment on first use; `None` (after one
/// line on stderr) when the environment does not describe one.
pub(crate) fn node() -> Option<&'static Node> {
    let mut fresh = false;
    let node = NODE.get_or_init(|| {
        fresh = true;
        Node::from_env()
    });
    match node {
        Ok(node) => Some(node),
        Err(message) => {
            if fresh {
                eprintln!("amdgpu-sim-ffi: {message}");
            }
            None
        }
    }
}

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

impl Node {
    fn from_env() -> Result<Node, String> {
        let machine = amdgpu_sim::presets::machine_from_env()?;
        let sim = match crate::mapped_store::MappedStore::new() {
            Some(store) => Sim::with_store(machine, Box::new(store)),
            None => {
                eprintln!(
                    "amdgpu-sim-ffi: the host's pages are not 4 KiB: simulated memory is \
                     not host memory (pool allocations must not be dereferenced)"
                );
                Sim::new(machine)
            }
        };
        match env(TRACE_ENV).as_deref() {
            Some("1") => sim.set_trace(true),
            Some("threads") => sim.set_trace_threads(true),
            _ => {}
        }
        match env(KERNELS_ENV).as_deref() {
            None | Some("execute") => {}
            Some("skip") => sim.set_kernel_mode(KernelMode::Skip),
            Some(other) => {
                return Err(format!(
                    "{KERNELS_ENV}: `{other}` is neither `execute` nor `skip`"
                ));
            }
        }
        let on_fault = OnFault::parse(env(ON_FAULT_ENV).as_deref())?;
        if let Some(spec) = env(FAULTS_ENV) {
            crate::spec::arm(&sim, &spec).map_err(|e| format!("{FAULTS_ENV}: {e}"))?;
        }
        crate::ptr::at_exit(write_report_at_exit);
        Ok(Node {
            sim,
            report: env(REPORT_ENV),
            on_fault,
        })
    }

    /// Rewrites the report file (when one is named).
    pub(crate) fn write_report(&self) {
        let Some(path) = &self.report else { return };
        if let Err(e) = std::fs::write(path, report(&self.sim)) {
            eprintln!("amdgpu-sim-ffi: cannot write {REPORT_ENV} '{path}': {e}");
        }
    }
}

/// HIP clients never call `hsa_shut_down`: the report is also written
/// when the process exits.
extern "C" fn write_report_at_exit() {
    if let Some(Ok(node)) = NODE.get() {
        node.write_report();
    }
}

/// The report: live objects (and the loaded code-object images still
/// mapped, and the shared images behind them) and the calls that failed by
/// injection, one `key value` per line (`injected <op>` in call order), then
/// the number of kernel launches recorded, executed, skipped and faulted.
pub fn report(sim: &Sim) -> String {
    let live = sim.live_objects();
    let (streams, events) = crate::stream::registry().live();
    let (graphs, graph_execs) = crate::graph::live();
    let (host_allocations, host_registrations) = crate::host_memory::host_memory().live();
    let images = sim.image_usage();
    let mut out = format!(
        "allocations {}\nallocated_bytes {}\nreaders {}\nexecutables {}\n\
         hip_contexts {}\nhip_pools {}\nhip_modules {}\nhip_streams {streams}\n\
         hip_events {events}\nhip_graphs {graphs}\nhip_graph_execs {graph_execs}\nhost_allocations {host_allocations}\n\
         host_registrations {host_registrations}\nhsa_signals {}\nhsa_queues {}\nimage_mappings {}\nshared_images {}\n\
         vmem_reservations {}\nvmem_handles {}\nvmem_mappings {}\nhsa_locked {}\nhsa_async_copies {}\n",
        live.allocations,
        live.allocated_bytes,
        live.readers,
        live.executables,
        live.hip_contexts,
        live.hip_pools,
        live.hip_modules,
        crate::signal::registry().live(),
        crate::queue::registry().live(),
        images.mappings,
        images.shared_images,
        live.vmem_reservations,
        live.vmem_handles,
        live.vmem_mappings,
        crate::host_memory::host_memory().locks(),
        crate::async_copy::pending(),
    );
    let (log, _) = sim.call_log();
    for record in log.iter().filter(|r| r.injected) {
        out.push_str(&format!("injected {} -> {}\n", record.op, record.outcome));
    }
    let kernels = sim.kernel_counts();
    out.push_str(&format!(
        "launches {}\nlaunches_executed {}\nlaunches_skipped {}\nlaunches_faulted {}\n\
         hsa_calls {}\nhip_calls {}\n",
        sim.hip_launches().1,
        kernels.executed,
        kernels.skipped,
        kernels.faulted,
        sim.hsa_call_count(),
        sim.hip_call_count()
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The report's fault lines are `injected OP -> CODE NAME`, the code
    /// spelt as `AMDGPU_SIM_FAULTS` takes it (docs/SIMULATOR.md), never
    /// Rust's debug text.
    #[test]
    fn report_lines_name_the_injected_code_as_the_spec_spells_it() {
        let sim = Sim::new(load_machine("w7900").expect("preset"));
        crate::spec::arm(&sim, "hipInit=101;hsa_init=0x1008").expect("valid spec");
        assert!(sim.hip_init(0).is_err());
        assert!(sim.hsa_init().is_err());
        let report = report(&sim);
        let injected: Vec<&str> = report
            .lines()
            .filter(|line| line.starts_with("injected "))
            .collect();
        assert_eq!(
            injected,
            [
                "injected hipInit -> 101 hipErrorInvalidDevice",
                "injected hsa_init -> 0x1008 HSA_STATUS_ERROR_OUT_OF_RESOURCES",
            ]
        );
        assert!(!report.contains("Code("), "{report}");
    }
}
