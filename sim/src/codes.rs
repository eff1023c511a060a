//! The vendor status values the simulator returns, as raw numbers: the
//! simulator depends on nothing of ours, so it speaks `hsa_status_t` and
//! `hipError_t` values and the adapter in `amdgpu-hal` gives them names.

/// A raw `hsa_status_t` failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HsaCode(pub u32);

impl HsaCode {
    /// `HSA_STATUS_INFO_BREAK`.
    pub const INFO_BREAK: HsaCode = HsaCode(0x1);
    /// `HSA_STATUS_ERROR`.
    pub const ERROR: HsaCode = HsaCode(0x1000);
    /// `HSA_STATUS_ERROR_INVALID_ARGUMENT`.
    pub const INVALID_ARGUMENT: HsaCode = HsaCode(0x1001);
    /// `HSA_STATUS_ERROR_INVALID_ALLOCATION`.
    pub const INVALID_ALLOCATION: HsaCode = HsaCode(0x1003);
    /// `HSA_STATUS_ERROR_INVALID_AGENT`.
    pub const INVALID_AGENT: HsaCode = HsaCode(0x1004);
    /// `HSA_STATUS_ERROR_OUT_OF_RESOURCES`.
    pub const OUT_OF_RESOURCES: HsaCode = HsaCode(0x1008);
    /// `HSA_STATUS_ERROR_NOT_INITIALIZED`.
    pub const NOT_INITIALIZED: HsaCode = HsaCode(0x100B);
    /// `HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS`.
    pub const INCOMPATIBLE_ARGUMENTS: HsaCode = HsaCode(0x100D);
    /// `HSA_STATUS_ERROR_INVALID_ISA`.
    pub const INVALID_ISA: HsaCode = HsaCode(0x100F);
    /// `HSA_STATUS_ERROR_INVALID_CODE_OBJECT`.
    pub const INVALID_CODE_OBJECT: HsaCode = HsaCode(0x1010);
    /// `HSA_STATUS_ERROR_INVALID_EXECUTABLE`.
    pub const INVALID_EXECUTABLE: HsaCode = HsaCode(0x1011);
    /// `HSA_STATUS_ERROR_FROZEN_EXECUTABLE`.
    pub const FROZEN_EXECUTABLE: HsaCode = HsaCode(0x1012);
    /// `HSA_STATUS_ERROR_INVALID_SYMBOL_NAME`.
    pub const INVALID_SYMBOL_NAME: HsaCode = HsaCode(0x1013);
    /// `HSA_STATUS_ERROR_INVALID_ISA_NAME`.
    pub const INVALID_ISA_NAME: HsaCode = HsaCode(0x1017);
    /// `HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL`.
    pub const INVALID_EXECUTABLE_SYMBOL: HsaCode = HsaCode(0x1019);
    /// `HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER`.
    pub const INVALID_CODE_OBJECT_READER: HsaCode = HsaCode(0x1021);
    /// `HSA_STATUS_ERROR_INVALID_MEMORY_POOL`.
    pub const INVALID_MEMORY_POOL: HsaCode = HsaCode(40);
}

/// A raw `hipError_t` failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HipCode(pub i32);

impl HipCode {
    /// `hipErrorInvalidValue`.
    pub const INVALID_VALUE: HipCode = HipCode(1);
    /// `hipErrorOutOfMemory`.
    pub const OUT_OF_MEMORY: HipCode = HipCode(2);
    /// `hipErrorInvalidConfiguration`.
    pub const INVALID_CONFIGURATION: HipCode = HipCode(9);
    /// `hipErrorInvalidDevicePointer`.
    pub const INVALID_DEVICE_POINTER: HipCode = HipCode(17);
    /// `hipErrorNoDevice`.
    pub const NO_DEVICE: HipCode = HipCode(100);
    /// `hipErrorInvalidDevice`.
    pub const INVALID_DEVICE: HipCode = HipCode(101);
    /// `hipErrorInvalidImage`.
    pub const INVALID_IMAGE: HipCode = HipCode(200);
    /// `hipErrorInvalidContext`.
    pub const INVALID_CONTEXT: HipCode = HipCode(201);
    /// `hipErrorNoBinaryForGpu`.
    pub const NO_BINARY_FOR_GPU: HipCode = HipCode(209);
    /// `hipErrorPeerAccessUnsupported`.
    pub const PEER_ACCESS_UNSUPPORTED: HipCode = HipCode(217);
    /// `hipErrorInvalidResourceHandle` (also `hipErrorInvalidHandle`).
    pub const INVALID_RESOURCE_HANDLE: HipCode = HipCode(400);
    /// `hipErrorNotFound`.
    pub const NOT_FOUND: HipCode = HipCode(500);
    /// `hipErrorNotReady`.
    pub const NOT_READY: HipCode = HipCode(600);
    /// `hipErrorHostMemoryAlreadyRegistered`.
    pub const HOST_MEMORY_ALREADY_REGISTERED: HipCode = HipCode(712);
    /// `hipErrorHostMemoryNotRegistered`.
    pub const HOST_MEMORY_NOT_REGISTERED: HipCode = HipCode(713);
    /// `hipErrorNotSupported`.
    pub const NOT_SUPPORTED: HipCode = HipCode(801);
    /// `hipErrorPeerAccessAlreadyEnabled`.
    pub const PEER_ACCESS_ALREADY_ENABLED: HipCode = HipCode(704);
}

/// A raw `ncclResult_t` failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CclCode(pub i32);

impl CclCode {
    /// `ncclSystemError` (what a missing library looks like to a caller).
    pub const SYSTEM_ERROR: CclCode = CclCode(2);
}
