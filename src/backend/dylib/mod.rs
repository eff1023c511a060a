//! The real backend: the vendor libraries loaded at run time with
//! `libloading` (cargo feature `real`). This module is the crate's only
//! `unsafe` code; every block carries a `SAFETY:` comment.
//!
//! - [`library`]: the search rules (explicit paths → environment variable →
//!   system loader) and the `UNAVAILABLE` status listing every path tried.
//! - `symbols`: the symbol-table macro (required / optional / checked
//!   symbols, resolved once at load; every missing one named).
//! - [`hsa`] / [`hsa_info`]: `libhsa-runtime64`, one safe method per C
//!   call (the `*_get_info` calls in `hsa_info`, each answer written only
//!   into a buffer that holds it); the C types are `amdgpu-sys`'s.
//! - [`hip`]: `libamdhip64` (HIP 5.x and 6.x sonames).
//! - [`cuda`]: HIP on NVIDIA — the same HIP calls answered by the CUDA driver
//!   API (`libcuda.so.1`) the way HIP's NVIDIA platform maps them.
//! - [`nvml`]: NVML (`libnvidia-ml.so.1`), what `nvidia-smi` reads; and
//!   [`nvml_hip`]: HIP's enumeration and topology calls answered from an
//!   NVML snapshot, for `devices`/`topology --backend cuda` without `cuInit`.
//! - [`nccl`]: RCCL (`librccl.so`) or NCCL (`libnccl.so.2`) in the RCCL slot.
//! - [`open`]: `--backend hsa|hip|cuda` → a [`crate::backend::Backend`]
//!   (`cuda` without HSA).
//! - `hsa_backend` / `hip_backend`: the [`crate::backend::Hsa`],
//!   [`crate::backend::Hip`] and [`crate::backend::Ccl`] traits over them.

pub mod cuda;
pub mod hip;
mod hip_backend;
pub mod hsa;
mod hsa_backend;
pub mod hsa_info;
pub mod library;
pub mod nccl;
pub mod nvml;
pub mod nvml_hip;
pub mod open;
mod symbols;

pub use open::{HOST_MACHINE, REAL_BACKEND_NAMES, open_backend, open_cuda_listing};
