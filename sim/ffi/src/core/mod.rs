//! The bottom of the library: the [`runtime::Runtime`] that owns the node
//! and every registry, reached one way (`runtime::runtime`), and what
//! every export needs besides it. Bottom to top:
//!
//! - `ptr`, `clock`, `texts`, `cpu`: the caller's pointers and host memory;
//!   the GPU clock; the status texts; the CPU against the extensions the
//!   build uses;
//! - `mapped_store`: simulated memory as process mappings;
//! - `place`, `handles`, `settings`: where a copy reads or writes; handle
//!   values; what the environment says;
//! - the registries: `host_memory`, `device_faults`, `last_error`,
//!   `signals`, `queues`, `graphs`, `streams`, `copies`, `fat_binaries`
//!   (HIP's registered fat binaries, kernels and variables);
//! - `read_back`: the digest of what the client read back from the devices;
//! - `report`: the report's text from the node and the registries' counts;
//! - `runtime`: the node and the registries, created from the environment;
//! - `hsa_call`, `hip_call`: how an HSA or a HIP export runs on it;
//! - `exports`: the macro defining each export (a timeline span);
//! - `timeline`: the Chrome trace-event file of the run
//!   (`AMDGPU_SIM_TRACE=chrome:FILE`), beside the runtime: every export
//!   opens a span on it before the runtime exists.

pub(crate) mod clock;
pub(crate) mod copies;
pub(crate) mod cpu;
pub(crate) mod device_faults;
pub(crate) mod exports;
pub(crate) mod fat_binaries;
pub(crate) mod graphs;
pub(crate) mod handles;
pub(crate) mod hip_call;
pub(crate) mod host_memory;
pub(crate) mod hsa_call;
pub(crate) mod last_error;
pub(crate) mod mapped_store;
pub(crate) mod place;
pub(crate) mod ptr;
pub(crate) mod queues;
pub(crate) mod read_back;
pub(crate) mod report;
pub(crate) mod runtime;
pub(crate) mod settings;
pub(crate) mod signals;
pub(crate) mod streams;
pub(crate) mod texts;
pub(crate) mod timeline;
