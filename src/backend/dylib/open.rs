//! Opening a real backend by name (`--backend hsa|hip|cuda`).
//!
//! - `hsa`: `libhsa-runtime64` (ROCr), which it needs, and `libamdhip64`
//!   when it is there: HSA lists the agents, HIP only adds each GPU's HIP
//!   identity, so a machine with ROCr alone (Debian's `rocminfo` pulls in
//!   `libhsa-runtime64-1` without `libamdhip64-5`) still lists its agents
//!   ([`Backend::without_hip`]);
//! - `hip`: `libamdhip64`, which it needs, and `libhsa-runtime64` when it is
//!   there ([`Backend::without_hsa`] otherwise);
//! - both: RCCL when present;
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
use super::nvml_hip::NvmlHip;
use crate::backend::Backend;
use crate::status::{Result, ResultExt, Status};

/// The real backends, by their `--backend` names.
pub const REAL_BACKEND_NAMES: [&str; 3] = ["hsa", "hip", "cuda"];

/// The `machine` a real backend reports: the host it runs on.
pub const HOST_MACHINE: &str = "host";

/// The `cuda` backend for the listings (`devices`, `topology`): HIP's
/// enumeration and topology answered from NVML ([`NvmlHip`], no `cuInit`;
/// with `links`, every pair's link is read too), or, where NVML cannot give
/// CUDA's answers (not installed, failing, a CUDA order NVML does not share:
/// [`NvmlHip::read`]), [`open_backend`]`("cuda")`, the CUDA driver, with a
/// `tracing` debug line saying why.
pub fn open_cuda_listing(links: bool) -> Result<Backend> {
    match NvmlHip::read(links).annotate("opening backend 'cuda' through NVML")? {
        Ok(nvml) => {
            tracing::debug!(path = nvml.path(), "backend 'cuda' answered from NVML");
            Ok(Backend::without_hsa("cuda", HOST_MACHINE, Arc::new(nvml)))
        }
        Err(reason) => {
            tracing::debug!(%reason, "NVML not used; backend 'cuda' falls back to the CUDA driver");
            open_backend("cuda")
        }
    }
}

/// `backend` with RCCL when it loads (IREE defers a missing RCCL).
fn with_rccl(backend: Backend) -> Backend {
    match NcclLibrary::load(&RCCL, &[]) {
        Ok(rccl) => backend.with_ccl(Arc::new(rccl)),
        Err(_) => backend,
    }
}

/// Opens the real backend called `name` (one of [`REAL_BACKEND_NAMES`]).
pub fn open_backend(name: &str) -> Result<Backend> {
    match name {
        "hsa" => {
            let hsa = HsaLibrary::load(&[]).annotate("opening backend 'hsa'")?;
            let backend = match HipLibrary::load(&[]) {
                Ok(hip) => Backend::new(name, HOST_MACHINE, Arc::new(hsa), Arc::new(hip)),
                Err(reason) => {
                    tracing::debug!(%reason, "no HIP runtime: HIP identities left out");
                    Backend::without_hip(name, HOST_MACHINE, Arc::new(hsa), reason)
                }
            };
            Ok(with_rccl(backend))
        }
        "hip" => {
            let hip = HipLibrary::load(&[]).annotate("opening backend 'hip'")?;
            let backend = match HsaLibrary::load(&[]) {
                Ok(hsa) => Backend::new(name, HOST_MACHINE, Arc::new(hsa), Arc::new(hip)),
                Err(reason) => {
                    tracing::debug!(%reason, "no HSA runtime: HIP alone answers");
                    Backend::without_hsa(name, HOST_MACHINE, Arc::new(hip))
                }
            };
            Ok(with_rccl(backend))
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
