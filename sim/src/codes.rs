//! The vendor status values the simulator returns, as raw numbers: the
//! simulator speaks `hsa_status_t`, `hipError_t` and `ncclResult_t` values
//! (their names and texts are `amdgpu-sys`'s) and the adapter in
//! `amdgpu-hal` gives them types. The short names here are the simulator's
//! own spellings of `amdgpu-sys`'s constants.

use amdgpu_sys::hip_error::*;
use amdgpu_sys::hsa_status::*;
use amdgpu_sys::nccl::ncclSystemError;

/// A raw `hsa_status_t` failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HsaCode(pub hsa_status_t);

/// A raw `hipError_t` failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HipCode(pub hipError_t);

/// As `AMDGPU_SIM_FAULTS` spells a code, then its C name when known:
/// `0x1008 HSA_STATUS_ERROR_OUT_OF_RESOURCES` (HSA's values in hex, as its
/// header lists them).
impl std::fmt::Display for HsaCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:#x}", self.0)?;
        match amdgpu_sys::hsa_status::hsa_status_entry(self.0) {
            Some(entry) => write!(f, " {}", entry.name),
            None => Ok(()),
        }
    }
}

/// As `AMDGPU_SIM_FAULTS` spells a code, then its C name when known:
/// `2 hipErrorOutOfMemory` (HIP's values in decimal, as its header lists
/// them).
impl std::fmt::Display for HipCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)?;
        match amdgpu_sys::hip_error::hip_error_entry(self.0) {
            Some(entry) => write!(f, " {}", entry.name),
            None => Ok(()),
        }
    }
}

/// A raw `ncclResult_t` failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CclCode(pub i32);

macro_rules! aliases {
    ($code:ident: $($short:ident = $constant:ident,)*) => {
        impl $code {
            $(
                #[doc = concat!("`", stringify!($constant), "`.")]
                pub const $short: $code = $code($constant);
            )*
        }
    };
}

aliases! { HsaCode:
    INFO_BREAK = HSA_STATUS_INFO_BREAK,
    ERROR = HSA_STATUS_ERROR,
    INVALID_ARGUMENT = HSA_STATUS_ERROR_INVALID_ARGUMENT,
    INVALID_ALLOCATION = HSA_STATUS_ERROR_INVALID_ALLOCATION,
    INVALID_AGENT = HSA_STATUS_ERROR_INVALID_AGENT,
    OUT_OF_RESOURCES = HSA_STATUS_ERROR_OUT_OF_RESOURCES,
    NOT_INITIALIZED = HSA_STATUS_ERROR_NOT_INITIALIZED,
    INCOMPATIBLE_ARGUMENTS = HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS,
    INVALID_ISA = HSA_STATUS_ERROR_INVALID_ISA,
    INVALID_CODE_OBJECT = HSA_STATUS_ERROR_INVALID_CODE_OBJECT,
    INVALID_EXECUTABLE = HSA_STATUS_ERROR_INVALID_EXECUTABLE,
    FROZEN_EXECUTABLE = HSA_STATUS_ERROR_FROZEN_EXECUTABLE,
    INVALID_SYMBOL_NAME = HSA_STATUS_ERROR_INVALID_SYMBOL_NAME,
    INVALID_ISA_NAME = HSA_STATUS_ERROR_INVALID_ISA_NAME,
    INVALID_EXECUTABLE_SYMBOL = HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL,
    INVALID_CODE_OBJECT_READER = HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER,
    INVALID_MEMORY_POOL = HSA_STATUS_ERROR_INVALID_MEMORY_POOL,
    INVALID_SIGNAL = HSA_STATUS_ERROR_INVALID_SIGNAL,
    INVALID_QUEUE = HSA_STATUS_ERROR_INVALID_QUEUE,
    INVALID_QUEUE_CREATION = HSA_STATUS_ERROR_INVALID_QUEUE_CREATION,
    INVALID_REGION = HSA_STATUS_ERROR_INVALID_REGION,
    RESOURCE_FREE = HSA_STATUS_ERROR_RESOURCE_FREE,
    MEMORY_APERTURE_VIOLATION = HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION,
}

aliases! { HipCode:
    INVALID_VALUE = hipErrorInvalidValue,
    OUT_OF_MEMORY = hipErrorOutOfMemory,
    INVALID_CONFIGURATION = hipErrorInvalidConfiguration,
    INVALID_DEVICE_POINTER = hipErrorInvalidDevicePointer,
    NO_DEVICE = hipErrorNoDevice,
    INVALID_DEVICE = hipErrorInvalidDevice,
    INVALID_IMAGE = hipErrorInvalidImage,
    INVALID_CONTEXT = hipErrorInvalidContext,
    NO_BINARY_FOR_GPU = hipErrorNoBinaryForGpu,
    PEER_ACCESS_UNSUPPORTED = hipErrorPeerAccessUnsupported,
    INVALID_RESOURCE_HANDLE = hipErrorInvalidResourceHandle,
    NOT_FOUND = hipErrorNotFound,
    NOT_READY = hipErrorNotReady,
    HOST_MEMORY_ALREADY_REGISTERED = hipErrorHostMemoryAlreadyRegistered,
    HOST_MEMORY_NOT_REGISTERED = hipErrorHostMemoryNotRegistered,
    NOT_SUPPORTED = hipErrorNotSupported,
    PEER_ACCESS_ALREADY_ENABLED = hipErrorPeerAccessAlreadyEnabled,
    ILLEGAL_ADDRESS = hipErrorIllegalAddress,
    LAUNCH_FAILURE = hipErrorLaunchFailure,
    INVALID_DEVICE_FUNCTION = hipErrorInvalidDeviceFunction,
    INVALID_SYMBOL = hipErrorInvalidSymbol,
}

aliases! { CclCode:
    SYSTEM_ERROR = ncclSystemError,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_display_as_the_fault_spec_writes_them_with_their_names() {
        assert_eq!(
            HsaCode(0x1008).to_string(),
            "0x1008 HSA_STATUS_ERROR_OUT_OF_RESOURCES"
        );
        assert_eq!(HipCode(2).to_string(), "2 hipErrorOutOfMemory");
        assert_eq!(HipCode(4242).to_string(), "4242");
        assert_eq!(HsaCode(0x7777).to_string(), "0x7777");
    }
}
