//! Opening a real backend by name (`--backend hsa|hip|cuda`).
//!
//! - `hsa` and `hip`: Debian's/ROCm's `libhsa-runtime64` and `libamdhip64`
//!   (both are part of every ROCm install; `hip` lists devices through HIP,
//!   `hsa` through HSA), RCCL when present;
//! - `cuda`: HIP on NVIDIA over `libcuda.so.1`, NCCL in the RCCL slot, and
//!   no HSA ([`Backend::without_hsa`]).
//!
//! Each library is found by the rules of [`super::library`] (environment
//! variables `IREE_HAL_AMDGPU_LIBHSA_PATH`, `IREE_HIP_DYLIB_PATH`,
//! `AMDGPU_HAL_CUDA_PATH`, `AMDGPU_HAL_RCCL_PATH`, `AMDGPU_HAL_NCCL_PATH`).
//! A missing collective library is not an error (IREE defers it).

use std::sync::Arc;

use super::cuda::CudaHip;
use super::hip::HipLibrary;
use super::hsa::HsaLibrary;
use super::library::{NCCL, RCCL};
use super::nccl::NcclLibrary;
use crate::backend::Backend;
use crate::status::{Result, ResultExt, Status};

/// The real backends, by their `--backend` names.
pub const REAL_BACKEND_NAMES: [&str; 3] = ["hsa", "hip", "cuda"];

/// The `machine` a real backend reports: the host it runs on.
pub const HOST_MACHINE: &str = "host";

/// Opens the real backend called `name` (one of [`REAL_BACKEND_NAMES`]).
pub fn open_backend(name: &str) -> Result<Backend> {
    match name {
        "hsa" | "hip" => {
            let hsa =
                HsaLibrary::load(&[]).annotate_with(|| format!("opening backend '{name}'"))?;
            let hip =
                HipLibrary::load(&[]).annotate_with(|| format!("opening backend '{name}'"))?;
            let backend = Backend::new(name, HOST_MACHINE, Arc::new(hsa), Arc::new(hip));
            Ok(match NcclLibrary::load(&RCCL, &[]) {
                Ok(rccl) => backend.with_ccl(Arc::new(rccl)),
                Err(_) => backend,
            })
        }
        "cuda" => {
            let hip = CudaHip::load(&[]).annotate("opening backend 'cuda'")?;
            let backend = Backend::without_hsa(name, HOST_MACHINE, Arc::new(hip));
            Ok(match NcclLibrary::load(&NCCL, &[]) {
                Ok(nccl) => backend.with_ccl(Arc::new(nccl)),
                Err(_) => backend,
            })
        }
        other => Err(Status::invalid_argument(format!(
            "unknown real backend '{other}' (expected one of {})",
            REAL_BACKEND_NAMES.join(", ")
        ))),
    }
}
