//! # amdgpu-sim-kfd — a test harness
//!
//! A `/dev/kfd` stand-in for processes that run on the simulated ROCm node
//! (`amdgpu-sim-ffi`) and open the kernel driver themselves, as IREE's
//! AMDGPU driver does for the one thing HSA does not expose: the GPU/host
//! clock correlation (`AMDKFD_IOC_GET_CLOCK_COUNTERS`). It is preloaded
//! (`LD_PRELOAD=libamdgpu_sim_kfd.so`) and never linked; it is not a KFD,
//! only what a KFD answers to the two requests a client of the simulated
//! node issues, and it says so wherever it is documented
//! (docs/SIMULATOR.md, "The /dev/kfd stand-in").
//!
//! - [`interpose`]: `open`, `open64`, `openat`, `openat64`, their fortified
//!   forms, `close` and `ioctl`. Opening exactly `/dev/kfd` while
//!   `AMDGPU_SIM_MACHINE` names a machine returns a real descriptor (an
//!   anonymous memory file, `memfd:amdgpu-sim-kfd`) that [`files`]
//!   remembers until it is closed; everything else goes to the next
//!   definition (the C library's), unchanged.
//! - [`ioctl`]: the KFD's request encoding and dispatch (`kfd_ioctl` in
//!   Linux's `kfd_chardev.c`: by request number, with the caller's size)
//!   and the two answers: `AMDKFD_IOC_GET_VERSION` and
//!   `AMDKFD_IOC_GET_CLOCK_COUNTERS`; any other request fails with
//!   `EINVAL`, the KFD's answer to a request it does not know.
//! - [`node`]: what the answers depend on, from the machine the process's
//!   simulated node runs (`amdgpu_sim::presets::machine_from_env`, the C
//!   library's own resolution): the GPU agents' `driver_uid`s (the KFD's
//!   `gpu_id`s), the interface version, the GPU counter's frequency.
//! - [`clock`]: the host clocks the KFD samples.
//!
//! The crate builds the interposer for Linux on x86-64 and AArch64 only
//! (the variadic ABI reasoning in [`interpose`] holds there); elsewhere it
//! is an empty library.
#![warn(missing_docs, clippy::undocumented_unsafe_blocks)]
#![deny(unsafe_op_in_unsafe_fn)]

pub mod ioctl;
pub mod node;

#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
pub mod clock;
#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
pub mod files;
#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
pub mod interpose;
#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
mod next;
