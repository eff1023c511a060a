//! Which backend and machine a report runs on: the `--backend` and
//! `--machine` choice of the command line, as a value library users can
//! build themselves.

use crate::backend::{Backend, SIM_BACKEND_NAME};
use crate::status::{Result, Status};

/// The machine a [`Selection`] without one runs on.
pub const DEFAULT_MACHINE: &str = amdgpu_sim::presets::DEFAULT_PRESET;

/// The machine name that selects the real hardware (`--machine host`).
pub const HOST_MACHINE: &str = "host";

/// The backend name of IREE's HIP driver.
pub const HIP_BACKEND_NAME: &str = "hip";

/// The backend name of HIP on NVIDIA (the CUDA driver API); always the host.
pub const CUDA_BACKEND_NAME: &str = "cuda";

/// A backend name (`sim`, `hip`, `hsa`, `cuda`) and a machine (a preset, a
/// description file, or [`HOST_MACHINE`]; `None` is [`DEFAULT_MACHINE`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selection {
    /// The backend's name.
    pub backend: String,
    /// The machine, as named.
    pub machine: Option<String>,
}

impl Selection {
    /// `backend` on `machine` (`None`: the default machine).
    pub fn new(backend: impl Into<String>, machine: Option<String>) -> Selection {
        Selection {
            backend: backend.into(),
            machine,
        }
    }

    /// The machine, or the default machine.
    pub fn machine(&self) -> &str {
        self.machine.as_deref().unwrap_or(DEFAULT_MACHINE)
    }

    /// True if this selects IREE's HIP driver (`hip` or `cuda`).
    pub fn is_hip_driver(&self) -> bool {
        self.backend == HIP_BACKEND_NAME || self.backend == CUDA_BACKEND_NAME
    }

    /// Refuses a machine the backend would ignore: `hsa` and `cuda` run on
    /// the host's runtime, so a simulated machine named with them is a
    /// mistake, not a choice.
    pub fn check(&self) -> Result<()> {
        match (self.backend.as_str(), self.machine.as_deref()) {
            ("hsa" | CUDA_BACKEND_NAME, Some(machine)) if machine != HOST_MACHINE => {
                Err(Status::invalid_argument(format!(
                    "--machine '{machine}' names a simulated machine, but --backend {} runs on \
                     the host's runtime; leave --machine out (or use --machine host), or use \
                     --backend sim|hip",
                    self.backend
                )))
            }
            // `host` is the real runtime, which only the real backends and
            // IREE's HIP driver reach; a file of that name still loads.
            (SIM_BACKEND_NAME, Some(HOST_MACHINE))
                if !std::path::Path::new(HOST_MACHINE).exists() =>
            {
                Err(Status::invalid_argument(
                    "--machine host is the host's real runtime, which --backend sim (the \
                     default) does not use: add --backend hip (IREE's HIP driver over the real \
                     libamdhip64) or --backend hsa|cuda (feature `real`); `machines` lists the \
                     simulated machines",
                ))
            }
            _ => Ok(()),
        }
    }

    /// Opens the backend this selects for a listing (`devices`, and with
    /// `links` the peer links `topology` draws): for `cuda`, HIP's calls
    /// answered from NVML where it can answer them for CUDA, without `cuInit`
    /// (`backend::dylib::open_cuda_listing`); otherwise [`Self::open_backend`].
    pub fn open_listing_backend(&self, links: bool) -> Result<Backend> {
        #[cfg(feature = "real")]
        if self.backend == CUDA_BACKEND_NAME {
            let _span = self.open_span();
            self.check()?;
            return crate::backend::dylib::open_cuda_listing(links);
        }
        let _ = links;
        self.open_backend()
    }

    /// The span a backend's opening is timed in (`-v`).
    fn open_span(&self) -> tracing::span::EnteredSpan {
        tracing::info_span!(
            "backend_open",
            backend = %self.backend,
            machine = %self.machine()
        )
        .entered()
    }

    /// Opens the backend this selects.
    pub fn open_backend(&self) -> Result<Backend> {
        let _span = self.open_span();
        self.check()?;
        match self.backend.as_str() {
            SIM_BACKEND_NAME => Backend::sim(self.machine()),
            // `hip` is IREE's HIP driver: over the simulated machine's HIP
            // devices, unless `--machine host` asks for the real runtime.
            HIP_BACKEND_NAME if self.machine() != HOST_MACHINE => {
                let sim = Backend::sim(self.machine())?;
                let backend = Backend::new(
                    HIP_BACKEND_NAME,
                    sim.machine(),
                    sim.hsa_arc()?,
                    sim.hip_arc(),
                );
                Ok(match sim.ccl_arc() {
                    Some(ccl) => backend.with_ccl(ccl),
                    None => backend,
                })
            }
            #[cfg(feature = "real")]
            real => crate::backend::dylib::open_backend(real),
            #[cfg(not(feature = "real"))]
            other => Err(Status::unavailable(format!(
                "backend '{other}' is not available in this build (the real vendor backends need cargo feature `real`)"
            ))),
        }
    }
}

/// The failure of a report that needs a GPU (`topology`, `info`, `load`)
/// on a machine without one; the listings (`devices`, `capture`) show what
/// is there instead, an empty list of GPUs included.
pub fn no_gpu(machine: &str, backend: &str) -> Status {
    Status::unavailable(format!(
        "machine '{machine}' has no GPU (backend {backend}); `devices` lists its agents"
    ))
}
