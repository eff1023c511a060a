//! The C library's integration tests in one binary (`cargo test -p
//! amdgpu-sim-ffi --test it`): one module per suite, `MODULE::` filters one.

// Shared with `rocminfo` (its parser has unit tests of its own).
mod rocminfo_format;

mod aql;
mod child;
mod concurrent_kernels;
mod hip_abi;
mod hip_aliases;
mod hip_compressed;
mod hip_programs;
mod hip_python;
mod hip_runtime_api;
mod hip_samples;
mod hip_streams;
mod iree_blits;
mod iree_built;
mod iree_packets;
mod iree_pm4_dispatch;
mod iree_symbols;
mod kernels;
mod kfd;
mod pinned_memory;
mod pitched_memory;
mod pool_memory;
mod process_state;
mod program_run;
mod published_dumps;
mod queues;
mod regions;
mod rocm_libraries;
mod rocminfo;
mod signals;
mod sim_libs;
mod timeline;
mod triton_launcher;
mod vendor_packets;
mod vmem;

/// The in-process node's environment, set once, before any test's first
/// call into the library (the only reader of these variables): the w7900
/// preset, and kernel faults reported rather than aborting the process
/// (suites here make kernels fault on purpose).
pub(crate) fn node_environment() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    // SAFETY: under a `Once` that every test passes before its first call
    // into the library, so no other thread reads the environment while it
    // is written.
    ONCE.call_once(|| unsafe {
        std::env::set_var("AMDGPU_SIM_MACHINE", "w7900");
        std::env::set_var("AMDGPU_SIM_ON_FAULT", "report");
    });
}
