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
//! - `hsa` / `info` / `loader` / `hip`: the modelled calls (`info`: the
//!   system, agent and ISA attributes), with the headers' exact
//!   signatures, struct layouts ([`abi`], asserted) and enum values.
//! - `unsupported`: every other symbol the `amdgpu-hal` dylib backend
//!   requires, failing with the vendor's not-supported answer.
//! - [`headers`]: every HSA value, size and offset above, for the check
//!   against the vendor headers (`tests/headers.rs`).
//! - `ptr`: the only `unsafe` code (pointer reads/writes, the export macro).
//!
//! This crate is the project's second FFI boundary (the first is
//! `amdgpu-hal`'s `backend::dylib`): `unsafe` is confined to `ptr`.
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod abi;
pub mod headers;
mod hip;
mod hip_runtime;
mod host_memory;
mod hsa;
mod image;
mod info;
mod loader;
pub mod node;
#[allow(unsafe_code)]
mod ptr;
pub mod spec;
mod stream;
mod strings;
mod unsupported;
