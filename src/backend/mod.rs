//! The backend traits: every HSA and HIP call the HAL makes goes through
//! [`Hsa`], [`Hip`] or [`Ccl`], so the same HAL code runs on the real vendor
//! libraries and on the simulated node.
//!
//! - [`handles`]: newtype handles (`Agent`, `Isa`, `MemoryPool`, ...).
//! - [`hsa_status`] / [`hip_error`]: the vendor status enums; both convert to
//!   [`Status`] naming the failing call (see [`CallResultExt`]).
//! - [`hsa_types`] / [`hip_types`]: typed info values.
//! - [`HsaExt`] ([`hsa_ext`]): the typed HSA queries (`agent_name`,
//!   `memory_pool_size`, ...), written once over [`Hsa`]'s C calls.
//! - [`Backend`]: the bundle of trait objects the CLI and HAL code take
//!   (HSA absent on a platform without it).
//! - [`search_paths`]: the `file:`/directory entry grammar every library
//!   loader uses.
//! - `dylib` (feature `real`): the real vendor libraries through
//!   `libloading`, the crate's only `unsafe` code.
//!
//! The traits are object-safe and `Send + Sync`; the C ABI behind them
//! (values, layouts, attribute enums) is `amdgpu-sys`'s.

#[cfg(feature = "real")]
#[allow(unsafe_code)]
pub mod dylib;
pub mod handles;
pub mod hip;
pub mod hip_error;
pub mod hip_types;
pub mod hsa;
pub mod hsa_ext;
pub mod hsa_status;
pub mod hsa_types;
pub mod nccl_version;
pub mod search_paths;
pub mod sim;

use std::fmt;
use std::sync::Arc;

use crate::status::{Status, StatusCode};

pub use amdgpu_sys::hsa_info::{
    AgentInfo, AgentMemoryPoolInfo, ExecutableSymbolInfo, InfoSize, IsaInfo, LoadedCodeObjectInfo,
    MemoryPoolInfo,
};
pub use handles::{
    Agent, CodeObjectReader, DevicePtr, Executable, ExecutableSymbol, HipDevice, Isa,
    LoadedCodeObject, MemoryPool,
};
pub use hip::{AbsentHip, Ccl, CclError, HIP_MAX_DEVICE_NAME_LENGTH, Hip, HipResult};
pub use hip_error::HipError;
pub use hip_types::{HipDeviceAttribute, HipDeviceProps, HipP2pAttribute, HipUuid};
pub use hsa::{ByteOwner, Hsa, HsaResult, SharedBytes, write_info};
pub use hsa_ext::HsaExt;
pub use hsa_status::HsaStatus;
pub use hsa_types::{
    DeviceType, GlobalFlags, LinkInfo, LinkType, MEMORY_POOL_STANDARD_FLAG, PoolAccess, Profile,
    RoundingMode, Segment, SymbolKind,
};
pub use sim::{SIM_BACKEND_NAME, SimBackend, load_machine};

/// A vendor failure that becomes a [`Status`] once the failing call is named.
pub trait VendorError: Copy {
    /// The status for this failure of `call` (the C function name).
    fn to_status(self, call: &str) -> Status;
}

impl VendorError for HsaStatus {
    fn to_status(self, call: &str) -> Status {
        HsaStatus::to_status(self, call)
    }
}

impl VendorError for HipError {
    fn to_status(self, call: &str) -> Status {
        HipError::to_status(self, call)
    }
}

impl VendorError for CclError {
    fn to_status(self, call: &str) -> Status {
        let code = match self {
            CclError::InvalidArgument => StatusCode::InvalidArgument,
            CclError::InvalidUsage => StatusCode::FailedPrecondition,
            CclError::InProgress => StatusCode::Unavailable,
            _ => StatusCode::Internal,
        };
        Status::new(
            code,
            format!("RCCL error '{}' ({})", self.name(), self.raw()),
        )
        .annotate(call)
    }
}

/// Converts a vendor-level result into a [`crate::Result`] at the HAL side:
///
/// ```
/// use amdgpu_hal::backend::{CallResultExt, HsaStatus};
/// let failed: Result<(), HsaStatus> = Err(HsaStatus::ErrorNotInitialized);
/// let status = failed.call_status("hsa_iterate_agents").unwrap_err();
/// assert!(status.message().starts_with("[hsa_iterate_agents] HSA_STATUS_ERROR_NOT_INITIALIZED"));
/// ```
pub trait CallResultExt<T> {
    /// Names the call that produced this result and converts its failure.
    fn call_status(self, call: &str) -> crate::Result<T>;
}

impl<T, E: VendorError> CallResultExt<T> for Result<T, E> {
    fn call_status(self, call: &str) -> crate::Result<T> {
        self.map_err(|error| error.to_status(call))
    }
}

/// The backend the CLI and HAL code run on: one HSA (absent on a platform
/// without it, HIP on NVIDIA), one HIP and an optional collective library,
/// with the names users see (`--backend`, `--machine`).
#[derive(Clone)]
pub struct Backend {
    name: String,
    machine: String,
    hsa: Option<Arc<dyn Hsa>>,
    hip: Arc<dyn Hip>,
    /// Why the backend has no HIP runtime (its `hip` is then [`AbsentHip`]).
    hip_missing: Option<Status>,
    ccl: Option<Arc<dyn Ccl>>,
}

/// What asking an absent HSA runtime for anything gives: the status of
/// `hsa_init` on a runtime whose initialization never succeeded, so
/// HSA-walking code reports a clear status instead of pretending there are
/// agents.
fn hsa_absent() -> Status {
    HsaStatus::ErrorNotInitialized.to_status("hsa_init")
}

impl Backend {
    /// A backend called `name` (e.g. `sim`, `hsa`) over `machine` (a preset
    /// name, a file, or the host) with these implementations and no RCCL.
    pub fn new(
        name: impl Into<String>,
        machine: impl Into<String>,
        hsa: Arc<dyn Hsa>,
        hip: Arc<dyn Hip>,
    ) -> Backend {
        Backend {
            name: name.into(),
            machine: machine.into(),
            hsa: Some(hsa),
            hip,
            hip_missing: None,
            ccl: None,
        }
    }

    /// A backend on a platform without HSA (HIP on NVIDIA): every use of
    /// its HSA fails as `hsa_init` does on a runtime that never initialized
    /// (`FAILED_PRECONDITION`, `HSA_STATUS_ERROR_NOT_INITIALIZED`).
    pub fn without_hsa(
        name: impl Into<String>,
        machine: impl Into<String>,
        hip: Arc<dyn Hip>,
    ) -> Backend {
        Backend {
            name: name.into(),
            machine: machine.into(),
            hsa: None,
            hip,
            hip_missing: None,
            ccl: None,
        }
    }

    /// A backend whose HIP runtime is missing (`--backend hsa` with ROCr
    /// but no `libamdhip64`): HSA answers everything, and every HIP call
    /// fails with `hipErrorNotInitialized` ([`AbsentHip`]), so what HIP alone
    /// knows (a GPU's HIP identity and properties) is left out rather than
    /// invented. `reason` is why HIP is missing ([`Backend::hip_missing`]).
    pub fn without_hip(
        name: impl Into<String>,
        machine: impl Into<String>,
        hsa: Arc<dyn Hsa>,
        reason: Status,
    ) -> Backend {
        Backend {
            name: name.into(),
            machine: machine.into(),
            hsa: Some(hsa),
            hip: Arc::new(AbsentHip),
            hip_missing: Some(reason),
            ccl: None,
        }
    }

    /// Why this backend has no HIP runtime (see [`Backend::without_hip`]);
    /// `None` when it has one.
    pub fn hip_missing(&self) -> Option<&Status> {
        self.hip_missing.as_ref()
    }

    /// The same backend with a collective library.
    #[must_use]
    pub fn with_ccl(mut self, ccl: Arc<dyn Ccl>) -> Backend {
        self.ccl = Some(ccl);
        self
    }

    /// The backend's name (`sim`, ...).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// What the backend runs on (the machine preset or file for `sim`).
    pub fn machine(&self) -> &str {
        &self.machine
    }

    /// The HSA runtime; on a platform without one, the status `hsa_init`
    /// gives there (see [`Backend::without_hsa`]).
    pub fn hsa(&self) -> crate::Result<&dyn Hsa> {
        self.hsa.as_deref().ok_or_else(hsa_absent)
    }

    /// The HSA runtime, shared (absent: as [`Backend::hsa`]).
    pub fn hsa_arc(&self) -> crate::Result<Arc<dyn Hsa>> {
        self.hsa.clone().ok_or_else(hsa_absent)
    }

    /// The HIP runtime.
    pub fn hip(&self) -> &dyn Hip {
        self.hip.as_ref()
    }

    /// The HIP runtime, shared.
    pub fn hip_arc(&self) -> Arc<dyn Hip> {
        Arc::clone(&self.hip)
    }

    /// The collective library, if one was loaded.
    pub fn ccl(&self) -> Option<&dyn Ccl> {
        self.ccl.as_deref()
    }

    /// The collective library, shared, if one was loaded.
    pub fn ccl_arc(&self) -> Option<Arc<dyn Ccl>> {
        self.ccl.clone()
    }
}

impl fmt::Debug for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Backend")
            .field("name", &self.name)
            .field("machine", &self.machine)
            .field("hsa", &self.hsa.is_some())
            .field("hip", &self.hip_missing.is_none())
            .field("ccl", &self.ccl.is_some())
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send_sync<T: Send + Sync + ?Sized>() {}

    #[test]
    fn traits_are_object_safe_and_thread_safe() {
        assert_send_sync::<dyn Hsa>();
        assert_send_sync::<dyn Hip>();
        assert_send_sync::<dyn Ccl>();
        assert_send_sync::<Backend>();
    }

    #[test]
    fn an_absent_hsa_fails_as_an_uninitialized_runtime() {
        let sim = Backend::sim("w7900").expect("preset");
        let backend = Backend::without_hsa("cuda", "host", sim.hip_arc());
        let status = backend.hsa().err().expect("no HSA");
        assert_eq!(status.code(), StatusCode::FailedPrecondition);
        assert!(
            status
                .message()
                .starts_with("[hsa_init] HSA_STATUS_ERROR_NOT_INITIALIZED"),
            "{status}"
        );
        assert!(backend.hsa_arc().is_err());
        assert!(sim.hsa().is_ok());
    }

    #[test]
    fn an_absent_hip_answers_nothing_and_keeps_its_reason() {
        let sim = Backend::sim("w7900").expect("preset");
        let reason = Status::unavailable("no libamdhip64 here");
        let backend = Backend::without_hip("hsa", "host", sim.hsa_arc().unwrap(), reason);
        assert_eq!(backend.hip().init(0), Err(HipError::NotInitialized));
        assert_eq!(
            backend.hip().get_device_count(),
            Err(HipError::NotInitialized)
        );
        assert!(backend.hsa().is_ok());
        let missing = backend.hip_missing().expect("reason kept");
        assert_eq!(missing.code(), StatusCode::Unavailable);
        assert!(missing.mentions("libamdhip64"));
        assert!(sim.hip_missing().is_none());
    }

    #[test]
    fn call_status_names_the_call() {
        let hip: Result<i32, HipError> = Err(HipError::InvalidDevice);
        let status = hip.call_status("hipDeviceGet").unwrap_err();
        assert_eq!(status.code(), StatusCode::FailedPrecondition);
        assert_eq!(status.annotations(), ["hipDeviceGet"]);
        let ccl: Result<i32, CclError> = Err(CclError::InvalidUsage);
        let status = ccl.call_status("ncclGetVersion").unwrap_err();
        assert_eq!(status.code(), StatusCode::FailedPrecondition);
        assert!(status.mentions("ncclInvalidUsage"));
    }
}
