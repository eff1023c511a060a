//! The simulated node: HIP, images, the loader, memory, faults and sweeps, and IREE's own runtime, CTS and AMDGPU driver as its clients.

mod fault_sweep;
mod faulted_run;
mod faults;
mod hip;
mod images;
mod iree_amdgpu;
mod iree_amdgpu_faults;
mod iree_amdgpu_run;
mod iree_build;
pub(crate) mod iree_client;
mod iree_cts;
mod iree_diff;
mod iree_e2e;
mod iree_seed_port;
mod kernels_corpus;
mod loader;
mod machine_format_doc;
mod memory;
mod thread_counts;
mod triton_corpus;
