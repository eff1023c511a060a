//! # amdgpu-sim-ffi
//!
//! The simulated ROCm node of `amdgpu-sim` behind the C ABI of
//! `libhsa-runtime64` (with the AMD loader extension table) and
//! `libamdhip64`: a shared library that a program loads in place of the
//! vendor runtimes, so its real FFI code — `dlopen`, symbol resolution,
//! function pointers, C structs and enums — runs end to end without a GPU.
//!
//! - [`node`]: the one node per process, chosen by `AMDGPU_SIM_MACHINE`
//!   (preset name or description file), faults from `AMDGPU_SIM_FAULTS`
//!   ([`spec`]), a leak report at `hsa_shut_down` in `AMDGPU_SIM_REPORT`.
//! - `mapped_store`: simulated memory as process mappings at the simulated
//!   addresses (pool allocations, loaded code, virtual memory), so a
//!   client and the node's kernels share its bytes; `memory`, `vmem` and
//!   `async_copy`: HSA's memory calls over it.
//! - `hsa` / `info` / `loader` / `hip`: the modelled calls, with the
//!   headers' exact signatures, struct layouts and enum values (all of them
//!   `amdgpu-sys`'s, asserted against the headers there); every `*_get_info`
//!   answer is `amdgpu_sim::get_info`'s, the encoder the in-process backend
//!   uses too, written through the caller's pointer.
//! - `unsupported`: every other symbol the `amdgpu-hal` dylib backend
//!   requires, failing with the vendor's not-supported answer.
//! - `ptr`: the pointer reads and writes (`unsafe fn`, each with its
//!   contract), host memory, and the export macro.
//!
//! This crate is the project's second FFI boundary (the first is
//! `amdgpu-hal`'s `backend::dylib`): an export that dereferences a caller's
//! pointer is `unsafe extern "C"`, and every `unsafe` block says why the
//! caller's contract makes it sound.
#![warn(missing_docs, clippy::undocumented_unsafe_blocks)]
#![deny(unsafe_op_in_unsafe_fn)]

/// The C ABI the exports speak: `amdgpu-sys`'s, in one glob.
mod abi {
    pub use amdgpu_sys::hip_error::*;
    pub use amdgpu_sys::hip_types::*;
    pub use amdgpu_sys::hsa_status::*;
    pub use amdgpu_sys::hsa_types::*;
}
mod aql;
mod async_copy;
mod clock;
pub mod device_fault;
mod graph;
mod hip;
mod hip_runtime;
mod host_memory;
mod hsa;
mod image;
mod kernel;
mod last_error;
mod loader;
mod mapped_store;
mod memory;
pub mod node;
mod ptr;
mod queue;
mod signal;
pub mod spec;
mod stream;
mod texts;
mod unsupported;
mod vendor;
mod vmem;
