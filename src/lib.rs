//! # amdgpu-hal
//!
//! IREE's GPU hardware abstraction layer pieces for AMD GPUs, re-implemented
//! in Rust and simulation-first: device groups and their topology, the HIP
//! driver, and AMDGPU executable loading. Every HSA and HIP call goes through
//! the backend traits in [`backend`]; the default backend is a deterministic
//! simulated ROCm node (the `amdgpu-sim` crate behind [`backend::SimBackend`]),
//! so everything runs without a GPU.
//! Errors are one type, [`Status`], with IREE's codes and messages.
//!
//! ## A short tour
//!
//! - **Backends** — [`backend::Backend::sim`] opens a simulated node (a preset
//!   such as `"mi300x-8"` or a machine file); with feature `real`,
//!   `backend::dylib::open_backend` opens the vendor libraries.
//! - **Topology** — [`amdgpu::device::create_gpu_agent_group`] builds a
//!   [`group::DeviceGroup`] of one HAL device per GPU agent; its
//!   [`topology::Topology`] holds IREE's packed [`topology::Edge`] per pair;
//!   [`group::report`] renders it as text, JSON or Graphviz.
//! - **HIP driver** — [`hip::HipDriver`] enumerates HIP devices and resolves
//!   IREE device paths (`0`, `GPU-<uuid>`, `0,1`) to logical devices.
//! - **Code objects and executables** — [`codeobj`] reads HSACO ELF files and
//!   their metadata; [`wrapped`] verifies, inspects and packs IREE's `AMD1`
//!   and `HIP1` executables; [`amdgpu::executable::create`] loads one on the GPUs a
//!   queue affinity selects.
//!
//! ```
//! use std::sync::Arc;
//! use amdgpu_hal::backend::{Backend, CallResultExt};
//! use amdgpu_hal::amdgpu::device::create_gpu_agent_group;
//! use amdgpu_hal::device::FrontierTracker;
//! use amdgpu_hal::topology::LinkClass;
//!
//! let backend = Backend::sim("mi300x-8")?;
//! let hsa = backend.hsa_arc()?;
//! hsa.init().call_status("hsa_init")?;
//! let group = create_gpu_agent_group(&hsa, Arc::new(FrontierTracker::default()))?;
//! assert_eq!(group.device_count(), 8);
//! let edge = group.topology().edge(0, 1).unwrap();
//! assert_eq!(edge.link_class(), LinkClass::NvlinkIf); // xGMI between MI300X GPUs
//! drop(group);
//! hsa.shut_down().call_status("hsa_shut_down")?;
//! # Ok::<(), amdgpu_hal::Status>(())
//! ```
//!
//! Inspecting an IREE executable and loading it on the GPUs a queue affinity
//! selects (`inspect` and `load` on the command line; each GPU has two
//! queues, so `0x3` is GPU0):
//!
//! ```
//! use amdgpu_hal::amdgpu::agents::{DEFAULT_GPU_AGENT_QUEUE_COUNT, AgentTopology};
//! use amdgpu_hal::amdgpu::profile::ProfileRegistry;
//! use amdgpu_hal::backend::{Backend, CallResultExt};
//! use amdgpu_hal::amdgpu::executable::{ExecutableParams, create};
//! use amdgpu_hal::report::inspect::inspect;
//! use amdgpu_hal::wrapped::DeviceLimits;
//!
//! let path = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/iree/matmul.gfx942.amd1");
//! let bytes = std::fs::read(path).expect("the fixture is committed");
//! let report = inspect(&bytes, &DeviceLimits::AMDGPU, &())?; // no backend needed
//! assert_eq!((report.format.as_str(), report.exports.len()), ("gfx942", 1));
//!
//! let backend = Backend::sim("mi300x-8")?;
//! let hsa = backend.hsa_arc()?;
//! hsa.init().call_status("hsa_init")?;
//! let topology = AgentTopology::from_backend(hsa.as_ref(), DEFAULT_GPU_AGENT_QUEUE_COUNT)?;
//! let params = ExecutableParams {
//!     executable_format: &report.format,
//!     executable_data: &bytes,
//!     queue_affinity: 0x3,
//!     constant_count: 0,
//! };
//! let exe = create(backend.hsa_arc()?, &topology, &params, &ProfileRegistry::new())?;
//! assert_eq!(exe.loaded_devices(), [0]);
//! assert_eq!(exe.export_symbol(0)?, "matmul_dispatch_0_matmul_128x64x256_f32.kd");
//! drop(exe);
//! hsa.shut_down().call_status("hsa_shut_down")?;
//! # Ok::<(), amdgpu_hal::Status>(())
//! ```
//!
//! `examples/` has runnable programs (`enumerate_devices`, `load_executable`,
//! `fault_cleanup`); `ARCHITECTURE.md` maps the modules and data flows.

// Bytes from outside reach most of this crate (code objects, executables,
// machine descriptions, device paths, vendor replies): no unwrap, expect,
// panic or unchecked indexing or slicing anywhere outside the unit tests
// (issue 10; CI's clippy run enforces it).
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::string_slice
)]
#![cfg_attr(not(feature = "real"), forbid(unsafe_code))]
#![cfg_attr(feature = "real", deny(unsafe_code))]
#![warn(missing_docs)]

pub mod amdgpu;
pub mod backend;
pub mod codeobj;
pub mod device;
pub mod escape;
pub mod group;
pub mod hip;
pub mod input;
pub mod json_writer;
pub mod report;
pub mod run;
pub mod status;
pub mod topology;
pub mod wrapped;

pub use status::{Result, ResultExt, Status, StatusCode};

/// README.md as a doctest: every ```` ```rust ```` block in it compiles and
/// runs under `cargo test` (only there: `cfg(doctest)`), so the README's
/// library example cannot drift from the API.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
