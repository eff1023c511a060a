//! The report (`AMDGPU_SIM_REPORT`): what is still alive (the node's
//! objects, the loaded code-object images still mapped and the shared
//! images behind them, and the C library's own: streams, events, graphs,
//! host memory, signals, queues, locks, pending async copies) and the
//! calls that failed by injection, so a test outside the process can check
//! that nothing leaked. The runtime counts its registries into a
//! [`Census`] and writes the text at `hsa_shut_down`, at exit and before a
//! kernel fault aborts the process.

use amdgpu_isa::{Fidelity, FidelityCounts};
use amdgpu_sim::Sim;

use super::read_back::{self, ReadBackTotals};

/// The live objects of the C library's own registries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Census {
    pub(crate) streams: usize,
    pub(crate) events: usize,
    pub(crate) graphs: usize,
    pub(crate) graph_execs: usize,
    pub(crate) host_allocations: usize,
    pub(crate) host_registrations: usize,
    pub(crate) signals: usize,
    pub(crate) queues: usize,
    pub(crate) locks: usize,
    pub(crate) async_copies: usize,
    /// Launches refused: a kernel the node cannot run (`launches_refused`).
    pub(crate) refused_launches: usize,
    /// Registered HIP fat binaries (`hip_fat_binaries`).
    pub(crate) fat_binaries: usize,
}

/// The file a report pattern names for this process: `%p` is the process
/// id, so that every process of a run (`amdgpu-hal run -- pytest`, a
/// test runner's children) keeps its own report instead of the last one
/// to exit overwriting the others'.
pub(crate) fn file_name(pattern: &str) -> String {
    pattern.replace("%p", &std::process::id().to_string())
}

/// The report text: live objects, one `key value` per line, then the
/// calls that failed by injection (`injected <op>` in call order), then
/// the number of kernel launches recorded, executed, skipped, faulted and
/// refused, and the calls counted, then what the client read back
/// ([`read_back::render`]), then the fidelity account ([`fidelity`]).
pub(crate) fn render(sim: &Sim, census: &Census, read_back: &ReadBackTotals) -> String {
    let live = sim.live_objects();
    let images = sim.image_usage();
    let Census {
        streams,
        events,
        graphs,
        graph_execs,
        host_allocations,
        host_registrations,
        signals,
        queues,
        locks,
        async_copies,
        refused_launches,
        fat_binaries,
    } = *census;
    let mut out = format!(
        "allocations {}\nallocated_bytes {}\nreaders {}\nexecutables {}\n\
         hip_contexts {}\nhip_pools {}\nhip_modules {}\nhip_streams {streams}\n\
         hip_events {events}\nhip_graphs {graphs}\nhip_graph_execs {graph_execs}\nhost_allocations {host_allocations}\n\
         host_registrations {host_registrations}\nhsa_signals {signals}\nhsa_queues {queues}\nimage_mappings {}\nshared_images {}\n\
         vmem_reservations {}\nvmem_handles {}\nvmem_mappings {}\nhsa_locked {locks}\nhsa_async_copies {async_copies}\nhip_fat_binaries {fat_binaries}\n",
        live.allocations,
        live.allocated_bytes,
        live.readers,
        live.executables,
        live.hip_contexts,
        live.hip_pools,
        live.hip_modules,
        images.mappings,
        images.shared_images,
        live.vmem_reservations,
        live.vmem_handles,
        live.vmem_mappings,
    );
    let (log, _) = sim.call_log();
    for record in log.iter().filter(|r| r.injected) {
        out.push_str(&format!("injected {} -> {}\n", record.op, record.outcome));
    }
    let kernels = sim.kernel_counts();
    out.push_str(&format!(
        "launches {}\nlaunches_executed {}\nlaunches_skipped {}\nlaunches_faulted {}\n\
         launches_refused {refused_launches}\nhsa_calls {}\nhip_calls {}\n",
        sim.hip_launches().1,
        kernels.executed,
        kernels.skipped,
        kernels.faulted,
        sim.hsa_call_count(),
        sim.hip_call_count()
    ));
    out.push_str(&read_back::render(read_back));
    out.push_str(&fidelity(&sim.kernel_fidelity()));
    out
}

/// The fidelity account: wave-instructions executed (by kernels that ran
/// to the end) in total and by class, `instructions N`,
/// `instructions_exact N`, `instructions_approximate N`,
/// `instructions_unmodelled N`, then one line per kernel, sorted by name:
/// `kernel NAME instructions N exact E approximate A unmodelled U`.
fn fidelity(kernels: &[(String, FidelityCounts)]) -> String {
    let mut total = FidelityCounts::default();
    for (_, counts) in kernels {
        total.merge(counts);
    }
    let mut out = format!(
        "instructions {}\ninstructions_exact {}\ninstructions_approximate {}\n\
         instructions_unmodelled {}\n",
        total.total(),
        total.get(Fidelity::Exact),
        total.get(Fidelity::Approximate),
        total.get(Fidelity::Unmodelled)
    );
    for (name, counts) in kernels {
        out.push_str(&format!(
            "kernel {name} instructions {} exact {} approximate {} unmodelled {}\n",
            counts.total(),
            counts.get(Fidelity::Exact),
            counts.get(Fidelity::Approximate),
            counts.get(Fidelity::Unmodelled)
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use amdgpu_sim::presets::load_machine;

    #[test]
    fn a_report_pattern_names_one_file_per_process() {
        let pid = std::process::id().to_string();
        assert_eq!(
            file_name("/tmp/r/report.%p"),
            format!("/tmp/r/report.{pid}")
        );
        assert_eq!(file_name("/tmp/report.txt"), "/tmp/report.txt");
    }

    /// The report's fault lines are `injected OP -> CODE NAME`, the code
    /// spelt as `AMDGPU_SIM_FAULTS` takes it (docs/SIMULATOR.md), never
    /// Rust's debug text.
    #[test]
    fn report_lines_name_the_injected_code_as_the_spec_spells_it() {
        let sim = Sim::new(load_machine("w7900").expect("preset"));
        crate::spec::arm(&sim, "hipInit=101;hsa_init=0x1008").expect("valid spec");
        assert!(sim.hip_init(0).is_err());
        assert!(sim.hsa_init().is_err());
        let report = render(&sim, &Census::default(), &ReadBackTotals::default());
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
