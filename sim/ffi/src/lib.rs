//! # amdgpu-sim-ffi
//!
//! The simulated ROCm node of `amdgpu-sim` behind the C ABI of
//! `libhsa-runtime64` (with the AMD loader extension table) and
//! `libamdhip64`: a shared library that a program loads in place of the
//! vendor runtimes, so its real FFI code — `dlopen`, symbol resolution,
//! function pointers, C structs and enums — runs end to end without a GPU.
//!
//! Layers, bottom to top (no module imports one above it):
//!
//! - [`spec`]: the `AMDGPU_SIM_FAULTS` grammar.
//! - `core`: the `Runtime` that owns the node (chosen by
//!   `AMDGPU_SIM_MACHINE`) and every registry of the C side (host memory,
//!   device failures, signals, queues, streams and events, graphs, async
//!   copies, the last HIP error), reached one way; the report written at
//!   `hsa_shut_down` and at exit in `AMDGPU_SIM_REPORT`; the call and
//!   pointer helpers every export uses (`ptr`: the pointer reads and
//!   writes, `unsafe fn`, each with its contract, host memory, the export
//!   macro); `mapped_store`: simulated memory as process mappings at the
//!   simulated addresses, so a client and the node's kernels share its
//!   bytes.
//! - [`device_fault`]: what a kernel fault does to the process.
//! - `hsa` and `hip`: the modelled calls, one file per object, with the
//!   headers' exact signatures, struct layouts and enum values (all of them
//!   `amdgpu-sys`'s, asserted against the headers there); every
//!   `*_get_info` answer is `amdgpu_sim::get_info`'s, the encoder the
//!   in-process backend uses too, written through the caller's pointer.
//! - `unsupported`: every other symbol the `amdgpu-hal` dylib backend
//!   requires, failing with the vendor's not-supported answer.
//! - [`node`]: the environment variables and the report, by the paths
//!   other crates use.
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
mod core;
pub mod device_fault;
mod hip;
mod hsa;
pub mod node;
pub mod spec;
mod unsupported;
