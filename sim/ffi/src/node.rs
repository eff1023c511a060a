//! The environment variables that describe the one simulated node of the
//! process, and its report, by the paths other crates use (the runtime
//! itself is the library's own):
//!
//! - [`MACHINE_ENV`] (`AMDGPU_SIM_MACHINE`): a preset name or a TOML/JSON
//!   machine description file (JSON when it ends in `.json`), resolved by
//!   `amdgpu_sim::presets::machine_from_env` (the `/dev/kfd` stand-in,
//!   `amdgpu-sim-kfd`, resolves it the same way);
//! - [`FAULTS_ENV`] (`AMDGPU_SIM_FAULTS`): faults armed on the node (see
//!   [`crate::spec`]);
//! - [`REPORT_ENV`] (`AMDGPU_SIM_REPORT`): a file rewritten at every
//!   `hsa_shut_down` (and at exit) with the live objects and the injected
//!   faults, so a test outside the process can check that nothing leaked;
//! - [`TRACE_ENV`] (`AMDGPU_SIM_TRACE`): every call on stderr;
//! - [`ON_FAULT_ENV`](crate::device_fault::ON_FAULT_ENV)
//!   (`AMDGPU_SIM_ON_FAULT`): whether a kernel's memory fault aborts the
//!   process, as on ROCm, or stays on its device as an error
//!   (`crate::device_fault`).

use amdgpu_sim::Sim;

pub use crate::core::settings::{FAULTS_ENV, REPORT_ENV, TRACE_ENV};
pub use amdgpu_sim::presets::{MACHINE_ENV, load_machine};

/// The report of a node with none of the C library's own objects (a node
/// used in process, as `backend::sim` uses one): live objects (and the
/// loaded code-object images still mapped, and the shared images behind
/// them) and the calls that failed by injection, one `key value` per line
/// (`injected <op>` in call order), then the number of kernel launches
/// recorded, executed, skipped and faulted (nothing is read back through
/// the library here, so its read-back lines are zeros). The library writes
/// the same text, with its own objects and copies counted, to [`REPORT_ENV`].
pub fn report(sim: &Sim) -> String {
    crate::core::report::render(
        sim,
        &crate::core::report::Census::default(),
        &crate::core::read_back::ReadBackTotals::default(),
    )
}
