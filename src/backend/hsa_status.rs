//! `HsaStatus`: the `hsa_status_t` values of `hsa.h` and `hsa_ext_amd.h`
//! (values, names and descriptions from `amdgpu-sys`) as a typed error.
//!
//! Backend calls return `Result<T, HsaStatus>` so that mocks and the
//! simulator's fault injection speak the vendor's codes. [`HsaStatus::to_status`]
//! turns one into a [`Status`] that names the failing call, with IREE's
//! message shape (`[hsa_call] HSA_STATUS_…: description`) and code mapping.

use amdgpu_sys::hsa_status::*;

use crate::status::{Status, StatusCode};

macro_rules! hsa_statuses {
    ($($variant:ident = $raw:ident => $code:ident;)*) => {
        /// A non-success `hsa_status_t`.
        ///
        /// Build one from a raw value with [`HsaStatus::from_raw`] (which maps
        /// known values to their variant); [`HsaStatus::Other`] holds codes
        /// that neither header defines. Values, names and descriptions are
        /// `amdgpu-sys`'s.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum HsaStatus {
            $(
                #[doc = concat!("`", stringify!($raw), "`.")]
                $variant,
            )*
            /// A code that is not in `hsa.h` / `hsa_ext_amd.h`.
            Other(u32),
        }

        impl HsaStatus {
            /// Every status the headers define (all but [`HsaStatus::Other`]).
            pub const KNOWN: &'static [HsaStatus] = &[$(HsaStatus::$variant),*];

            /// The raw `hsa_status_t` value.
            pub const fn raw(self) -> u32 {
                match self {
                    $(HsaStatus::$variant => $raw,)*
                    HsaStatus::Other(raw) => raw,
                }
            }

            /// The status for a raw value; `None` for `HSA_STATUS_SUCCESS` (0).
            pub const fn from_raw(raw: u32) -> Option<HsaStatus> {
                match raw {
                    HSA_STATUS_SUCCESS => None,
                    $($raw => Some(HsaStatus::$variant),)*
                    other => Some(HsaStatus::Other(other)),
                }
            }

            /// The IREE status code this maps to (IREE's `iree_hsa_status_code`).
            pub const fn status_code(self) -> StatusCode {
                match self {
                    $(HsaStatus::$variant => StatusCode::$code,)*
                    HsaStatus::Other(_) => StatusCode::Unknown,
                }
            }
        }
    };
}

hsa_statuses! {
    InfoBreak = HSA_STATUS_INFO_BREAK => Cancelled;
    Error = HSA_STATUS_ERROR => Unknown;
    ErrorInvalidArgument = HSA_STATUS_ERROR_INVALID_ARGUMENT => InvalidArgument;
    ErrorInvalidQueueCreation = HSA_STATUS_ERROR_INVALID_QUEUE_CREATION => InvalidArgument;
    ErrorInvalidAllocation = HSA_STATUS_ERROR_INVALID_ALLOCATION => InvalidArgument;
    ErrorInvalidAgent = HSA_STATUS_ERROR_INVALID_AGENT => InvalidArgument;
    ErrorInvalidRegion = HSA_STATUS_ERROR_INVALID_REGION => InvalidArgument;
    ErrorInvalidSignal = HSA_STATUS_ERROR_INVALID_SIGNAL => InvalidArgument;
    ErrorInvalidQueue = HSA_STATUS_ERROR_INVALID_QUEUE => InvalidArgument;
    ErrorOutOfResources = HSA_STATUS_ERROR_OUT_OF_RESOURCES => ResourceExhausted;
    ErrorInvalidPacketFormat = HSA_STATUS_ERROR_INVALID_PACKET_FORMAT => InvalidArgument;
    ErrorResourceFree = HSA_STATUS_ERROR_RESOURCE_FREE => Internal;
    ErrorNotInitialized = HSA_STATUS_ERROR_NOT_INITIALIZED => FailedPrecondition;
    ErrorRefcountOverflow = HSA_STATUS_ERROR_REFCOUNT_OVERFLOW => ResourceExhausted;
    ErrorIncompatibleArguments = HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS => Incompatible;
    ErrorInvalidIndex = HSA_STATUS_ERROR_INVALID_INDEX => OutOfRange;
    ErrorInvalidIsa = HSA_STATUS_ERROR_INVALID_ISA => Incompatible;
    ErrorInvalidCodeObject = HSA_STATUS_ERROR_INVALID_CODE_OBJECT => InvalidArgument;
    ErrorInvalidExecutable = HSA_STATUS_ERROR_INVALID_EXECUTABLE => InvalidArgument;
    ErrorFrozenExecutable = HSA_STATUS_ERROR_FROZEN_EXECUTABLE => FailedPrecondition;
    ErrorInvalidSymbolName = HSA_STATUS_ERROR_INVALID_SYMBOL_NAME => NotFound;
    ErrorVariableAlreadyDefined = HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED => FailedPrecondition;
    ErrorVariableUndefined = HSA_STATUS_ERROR_VARIABLE_UNDEFINED => FailedPrecondition;
    ErrorException = HSA_STATUS_ERROR_EXCEPTION => DataLoss;
    ErrorInvalidIsaName = HSA_STATUS_ERROR_INVALID_ISA_NAME => InvalidArgument;
    ErrorInvalidCodeSymbol = HSA_STATUS_ERROR_INVALID_CODE_SYMBOL => InvalidArgument;
    ErrorInvalidExecutableSymbol = HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL => InvalidArgument;
    ErrorInvalidFile = HSA_STATUS_ERROR_INVALID_FILE => InvalidArgument;
    ErrorInvalidCodeObjectReader = HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER => InvalidArgument;
    ErrorInvalidCache = HSA_STATUS_ERROR_INVALID_CACHE => InvalidArgument;
    ErrorInvalidWavefront = HSA_STATUS_ERROR_INVALID_WAVEFRONT => InvalidArgument;
    ErrorInvalidSignalGroup = HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP => InvalidArgument;
    ErrorInvalidRuntimeState = HSA_STATUS_ERROR_INVALID_RUNTIME_STATE => InvalidArgument;
    ErrorFatal = HSA_STATUS_ERROR_FATAL => DataLoss;
    ErrorInvalidMemoryPool = HSA_STATUS_ERROR_INVALID_MEMORY_POOL => InvalidArgument;
    ErrorMemoryApertureViolation = HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION => DataLoss;
    ErrorIllegalInstruction = HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION => DataLoss;
    ErrorMemoryFault = HSA_STATUS_ERROR_MEMORY_FAULT => DataLoss;
    CuMaskReduced = HSA_STATUS_CU_MASK_REDUCED => Unknown;
}

impl HsaStatus {
    /// The vendor name, e.g. `HSA_STATUS_ERROR_INVALID_ARGUMENT`
    /// (`"HSA_STATUS_UNKNOWN"` for [`HsaStatus::Other`]).
    pub const fn name(self) -> &'static str {
        match hsa_status_entry(self.raw()) {
            Some(entry) => entry.name,
            None => "HSA_STATUS_UNKNOWN",
        }
    }

    /// The header's description of the status (`"Unknown."` for [`HsaStatus::Other`]).
    pub const fn description(self) -> &'static str {
        match hsa_status_entry(self.raw()) {
            Some(entry) => entry.description,
            None => "Unknown.",
        }
    }

    /// Converts a raw C return value: `Ok(())` for success, the status otherwise.
    pub const fn check(raw: u32) -> Result<(), HsaStatus> {
        match HsaStatus::from_raw(raw) {
            None => Ok(()),
            Some(status) => Err(status),
        }
    }

    /// The IREE [`Status`] for this failure of `call` (the C function name),
    /// shaped like IREE's `iree_status_from_hsa_status`:
    /// `[hsa_executable_freeze] HSA_STATUS_ERROR_FROZEN_EXECUTABLE: The executable is frozen.`
    pub fn to_status(self, call: &str) -> Status {
        let message = match self {
            HsaStatus::Other(raw) => format!("[{call}] hsa_status_t 0x{raw:x}: Unknown."),
            known => format!("[{call}] {}: {}", known.name(), known.description()),
        };
        Status::new(self.status_code(), message)
    }
}

impl std::fmt::Display for HsaStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HsaStatus::Other(raw) => write!(f, "hsa_status_t 0x{raw:x}"),
            known => write!(f, "{} (0x{:x})", known.name(), known.raw()),
        }
    }
}

impl std::error::Error for HsaStatus {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_round_trips_for_every_known_status() {
        for &status in HsaStatus::KNOWN {
            assert_eq!(HsaStatus::from_raw(status.raw()), Some(status));
            assert!(status.name().starts_with("HSA_STATUS_"));
        }
        assert_eq!(HsaStatus::from_raw(0), None);
        assert_eq!(HsaStatus::from_raw(0x7777), Some(HsaStatus::Other(0x7777)));
    }

    #[test]
    fn values_match_the_headers() {
        assert_eq!(HsaStatus::ErrorOutOfResources.raw(), 0x1008);
        assert_eq!(HsaStatus::ErrorNotInitialized.raw(), 0x100B);
        assert_eq!(HsaStatus::ErrorInvalidIsaName.raw(), 0x1017);
        assert_eq!(HsaStatus::ErrorInvalidMemoryPool.raw(), 40);
    }

    #[test]
    fn to_status_names_the_call_and_maps_like_iree() {
        let status =
            HsaStatus::ErrorFrozenExecutable.to_status("hsa_executable_load_agent_code_object");
        assert_eq!(status.code(), StatusCode::FailedPrecondition);
        assert_eq!(
            status.message(),
            "[hsa_executable_load_agent_code_object] HSA_STATUS_ERROR_FROZEN_EXECUTABLE: The executable is frozen."
        );
        assert_eq!(
            HsaStatus::ErrorInvalidSymbolName.status_code(),
            StatusCode::NotFound
        );
        assert_eq!(
            HsaStatus::ErrorInvalidIsa.status_code(),
            StatusCode::Incompatible
        );
        assert_eq!(
            HsaStatus::ErrorInvalidIndex.status_code(),
            StatusCode::OutOfRange
        );
        assert_eq!(
            HsaStatus::ErrorOutOfResources.status_code(),
            StatusCode::ResourceExhausted
        );
        let other = HsaStatus::Other(0x4242).to_status("hsa_init");
        assert_eq!(other.code(), StatusCode::Unknown);
        assert!(other.message().contains("0x4242"));
    }
}
