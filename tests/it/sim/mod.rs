//! The simulated node: HIP, images, the loader, memory, faults and sweeps, and IREE's own runtime and CTS as its clients.

mod fault_sweep;
mod faults;
mod hip;
mod images;
pub(crate) mod iree_client;
mod iree_cts;
mod kernels_corpus;
mod loader;
mod machine_format_doc;
mod memory;
