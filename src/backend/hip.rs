//! The `Hip` trait (the HIP runtime calls the HIP driver makes) and the
//! `Ccl` trait (RCCL/NCCL, loaded optionally).

use amdgpu_sys::nccl::*;

use super::handles::HipDevice;
use super::hip_error::HipError;
use super::hip_types::{HipDeviceAttribute, HipDeviceProps, HipP2pAttribute, HipUuid};
use crate::topology::LinkClass;

/// Result of a HIP call.
pub type HipResult<T> = Result<T, HipError>;

/// `IREE_HAL_HIP_MAX_DEVICE_NAME_LENGTH`: the buffer the driver passes to `hipDeviceGetName`.
pub const HIP_MAX_DEVICE_NAME_LENGTH: usize = 128;

/// The HIP runtime (libamdhip64) as the HIP driver uses it.
pub trait Hip: Send + Sync {
    /// `hipInit(flags)`.
    fn init(&self, flags: u32) -> HipResult<()>;
    /// `hipDriverGetVersion`.
    fn driver_get_version(&self) -> HipResult<i32>;
    /// `hipRuntimeGetVersion`.
    fn runtime_get_version(&self) -> HipResult<i32>;
    /// `hipGetDeviceCount`.
    fn get_device_count(&self) -> HipResult<i32>;
    /// `hipDeviceGet(&device, ordinal)`.
    fn device_get(&self, ordinal: i32) -> HipResult<HipDevice>;
    /// `hipDeviceGetName(buf, len, device)`: the name as it fits `len` bytes
    /// with its NUL (so at most `len - 1` bytes; `len == 0` is invalid).
    fn device_get_name(&self, device: HipDevice, len: usize) -> HipResult<String>;
    /// `hipDeviceGetUuid`.
    fn device_get_uuid(&self, device: HipDevice) -> HipResult<HipUuid>;
    /// `hipGetDeviceProperties(&props, ordinal)` (the pre-6.0 struct).
    fn get_device_properties(&self, ordinal: i32) -> HipResult<HipDeviceProps>;
    /// `hipDeviceGetAttribute(&value, attribute, ordinal)`.
    fn device_get_attribute(&self, attribute: HipDeviceAttribute, ordinal: i32) -> HipResult<i32>;
    /// `hipDeviceCanAccessPeer(&can, ordinal, peer_ordinal)`.
    fn device_can_access_peer(&self, ordinal: i32, peer_ordinal: i32) -> HipResult<bool>;
    /// `hipSetDevice(ordinal)`: the device later calls act on.
    fn set_device(&self, ordinal: i32) -> HipResult<()>;
    /// `hipDeviceEnablePeerAccess(peer_ordinal, flags)` from the current device.
    fn device_enable_peer_access(&self, peer_ordinal: i32, flags: u32) -> HipResult<()>;
    /// `hipDeviceGetP2PAttribute(&value, attribute, src, dst)`.
    fn device_get_p2p_attribute(
        &self,
        attribute: HipP2pAttribute,
        src: i32,
        dst: i32,
    ) -> HipResult<i32>;
    /// The physical link class between two devices, where the runtime knows
    /// it beyond HIP's P2P attributes (NVML: NVLink, or how far apart on
    /// PCIe). HIP itself has no such call: `None`, the default, leaves the
    /// class to the P2P attributes (`crate::hip::hal`).
    fn peer_link_class(&self, _src: i32, _dst: i32) -> Option<LinkClass> {
        None
    }
    /// `hipGetErrorName`.
    fn get_error_name(&self, error: HipError) -> String;
    /// `hipGetErrorString`.
    fn get_error_string(&self, error: HipError) -> String;
}

/// The HIP of a backend that has none (`--backend hsa` on a machine with
/// ROCr but no `libamdhip64`; see `Backend::without_hip`): every call
/// fails with `hipErrorNotInitialized`, what HIP answers in a process whose
/// runtime never initialized, so code that asks HIP for an optional fact
/// (a GPU's HIP identity, its HIP properties) finds none instead of
/// inventing one.
#[derive(Clone, Copy, Debug, Default)]
pub struct AbsentHip;

impl Hip for AbsentHip {
    fn init(&self, _flags: u32) -> HipResult<()> {
        Err(HipError::NotInitialized)
    }
    fn driver_get_version(&self) -> HipResult<i32> {
        Err(HipError::NotInitialized)
    }
    fn runtime_get_version(&self) -> HipResult<i32> {
        Err(HipError::NotInitialized)
    }
    fn get_device_count(&self) -> HipResult<i32> {
        Err(HipError::NotInitialized)
    }
    fn device_get(&self, _ordinal: i32) -> HipResult<HipDevice> {
        Err(HipError::NotInitialized)
    }
    fn device_get_name(&self, _device: HipDevice, _len: usize) -> HipResult<String> {
        Err(HipError::NotInitialized)
    }
    fn device_get_uuid(&self, _device: HipDevice) -> HipResult<HipUuid> {
        Err(HipError::NotInitialized)
    }
    fn get_device_properties(&self, _ordinal: i32) -> HipResult<HipDeviceProps> {
        Err(HipError::NotInitialized)
    }
    fn device_get_attribute(
        &self,
        _attribute: HipDeviceAttribute,
        _ordinal: i32,
    ) -> HipResult<i32> {
        Err(HipError::NotInitialized)
    }
    fn device_can_access_peer(&self, _ordinal: i32, _peer_ordinal: i32) -> HipResult<bool> {
        Err(HipError::NotInitialized)
    }
    fn set_device(&self, _ordinal: i32) -> HipResult<()> {
        Err(HipError::NotInitialized)
    }
    fn device_enable_peer_access(&self, _peer_ordinal: i32, _flags: u32) -> HipResult<()> {
        Err(HipError::NotInitialized)
    }
    fn device_get_p2p_attribute(
        &self,
        _attribute: HipP2pAttribute,
        _src: i32,
        _dst: i32,
    ) -> HipResult<i32> {
        Err(HipError::NotInitialized)
    }
    fn get_error_name(&self, error: HipError) -> String {
        error.name().to_string()
    }
    fn get_error_string(&self, error: HipError) -> String {
        error.description().to_string()
    }
}

/// An `ncclResult_t` failure (RCCL shares NCCL's values).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CclError {
    /// `ncclUnhandledCudaError` (1).
    UnhandledCudaError,
    /// `ncclSystemError` (2).
    SystemError,
    /// `ncclInternalError` (3).
    InternalError,
    /// `ncclInvalidArgument` (4).
    InvalidArgument,
    /// `ncclInvalidUsage` (5).
    InvalidUsage,
    /// `ncclRemoteError` (6).
    RemoteError,
    /// `ncclInProgress` (7).
    InProgress,
    /// A value newer than NCCL 2.18.
    Other(i32),
}

impl CclError {
    /// The raw `ncclResult_t`.
    pub const fn raw(self) -> i32 {
        match self {
            CclError::UnhandledCudaError => ncclUnhandledCudaError,
            CclError::SystemError => ncclSystemError,
            CclError::InternalError => ncclInternalError,
            CclError::InvalidArgument => ncclInvalidArgument,
            CclError::InvalidUsage => ncclInvalidUsage,
            CclError::RemoteError => ncclRemoteError,
            CclError::InProgress => ncclInProgress,
            CclError::Other(raw) => raw,
        }
    }

    /// The error for a raw value; `None` for `ncclSuccess` (0).
    #[allow(non_upper_case_globals)] // NCCL's own enumerator names
    pub const fn from_raw(raw: i32) -> Option<CclError> {
        match raw {
            ncclSuccess => None,
            ncclUnhandledCudaError => Some(CclError::UnhandledCudaError),
            ncclSystemError => Some(CclError::SystemError),
            ncclInternalError => Some(CclError::InternalError),
            ncclInvalidArgument => Some(CclError::InvalidArgument),
            ncclInvalidUsage => Some(CclError::InvalidUsage),
            ncclRemoteError => Some(CclError::RemoteError),
            ncclInProgress => Some(CclError::InProgress),
            other => Some(CclError::Other(other)),
        }
    }

    /// The enumerator name, e.g. `ncclSystemError` (`ncclUnknownError` for
    /// a value NCCL 2.18 does not define).
    pub const fn name(self) -> &'static str {
        match nccl_result_name(self.raw()) {
            Some(name) => name,
            None => "ncclUnknownError",
        }
    }
}

impl std::fmt::Display for CclError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.name(), self.raw())
    }
}

impl std::error::Error for CclError {}

/// The collective-communication library (RCCL, or NCCL on NVIDIA): the driver
/// loads it optionally and checks its version.
pub trait Ccl: Send + Sync {
    /// `ncclGetVersion`: `major * 10000 + minor * 100 + patch` (or the pre-2.9 `* 1000` encoding).
    fn get_version(&self) -> Result<i32, CclError>;
}
