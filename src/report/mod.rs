//! The documents the `amdgpu-hal` command line prints, as library functions:
//! each takes a backend (or a [`Selection`] of one) and returns a
//! serializable document; the command line only parses arguments and
//! renders them.
//!
//! | report | function | document |
//! |---|---|---|
//! | `devices` | [`devices::list_agents`], [`hip::list_devices`] | [`devices::DevicesJson`], [`hip::HipDevicesJson`] |
//! | `topology` | [`topology::agent_topology`], [`hip::hip_topology`] | [`topology::TopologyDocument`] |
//! | `info` | [`info::info`] | [`info::InfoJson`] |
//! | `inspect` | [`inspect::inspect`] | [`inspect::InspectReport`] ([`inspect::InspectReport::write_json`]) |
//! | `inspect` of a `.vmfb` | [`vmfb::inspect_vmfb`] | [`vmfb::ModuleReport`] |
//! | `load` | [`load::load`] | [`load::Loaded`]: [`load::LoadJson`] ([`load_json::write_load`]), or of a `.vmfb` [`load::ModuleLoadJson`] |
//! | `capture` | [`capture::capture`] | `amdgpu_sim::machine::MachineDesc` ([`capture::to_toml`]) |
//!
//! Layering, lowest first: `selection`; `agents` (the HSA walk);
//! `hip_devices` and `identity` (over `agents`); `devices`, `hip`,
//! `topology`, `capture_hip`, `capture`, `info`, `load` (over those and
//! `load_module`, which is over `inspect`); `inspect` (over `wrapped` and
//! `codeobj` only), `vmfb` (over `inspect`). No
//! module reaches back up.

pub mod agents;
pub mod capture;
pub mod capture_hip;
pub mod devices;
pub mod hip;
pub mod hip_devices;
pub mod identity;
pub mod info;
pub mod inspect;
pub mod load;
pub mod load_json;
mod load_module;
mod selection;
pub mod topology;
pub mod vmfb;

pub use selection::{
    CUDA_BACKEND_NAME, DEFAULT_MACHINE, HIP_BACKEND_NAME, HOST_MACHINE, Selection, no_gpu,
};
