//! `HsaStatus`: the `hsa_status_t` values of `hsa.h` and `hsa_ext_amd.h`.
//!
//! Backend calls return `Result<T, HsaStatus>` so that mocks and the
//! simulator's fault injection speak the vendor's codes. [`HsaStatus::to_status`]
//! turns one into a [`Status`] that names the failing call, with IREE's
//! message shape (`[hsa_call] HSA_STATUS_…: description`) and code mapping.

use crate::status::{Status, StatusCode};

macro_rules! hsa_statuses {
    ($($variant:ident = $raw:literal, $name:literal, $code:ident, $desc:literal;)*) => {
        /// A non-success `hsa_status_t`.
        ///
        /// Build one from a raw value with [`HsaStatus::from_raw`] (which maps
        /// known values to their variant); [`HsaStatus::Other`] holds codes
        /// that neither header defines.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum HsaStatus {
            $(
                #[doc = $desc]
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
                    0 => None,
                    $($raw => Some(HsaStatus::$variant),)*
                    other => Some(HsaStatus::Other(other)),
                }
            }

            /// The vendor name, e.g. `HSA_STATUS_ERROR_INVALID_ARGUMENT`
            /// (`"HSA_STATUS_UNKNOWN"` for [`HsaStatus::Other`]).
            pub const fn name(self) -> &'static str {
                match self {
                    $(HsaStatus::$variant => $name,)*
                    HsaStatus::Other(_) => "HSA_STATUS_UNKNOWN",
                }
            }

            /// The header's description of the status.
            pub const fn description(self) -> &'static str {
                match self {
                    $(HsaStatus::$variant => $desc,)*
                    HsaStatus::Other(_) => "Unknown.",
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
    InfoBreak = 0x1, "HSA_STATUS_INFO_BREAK", Cancelled,
        "A traversal over a list of elements has been interrupted by the application before completing.";
    Error = 0x1000, "HSA_STATUS_ERROR", Unknown, "A generic error has occurred.";
    ErrorInvalidArgument = 0x1001, "HSA_STATUS_ERROR_INVALID_ARGUMENT", InvalidArgument,
        "One of the actual arguments does not meet a precondition stated in the documentation of the corresponding formal argument.";
    ErrorInvalidQueueCreation = 0x1002, "HSA_STATUS_ERROR_INVALID_QUEUE_CREATION", InvalidArgument,
        "The requested queue creation is not valid.";
    ErrorInvalidAllocation = 0x1003, "HSA_STATUS_ERROR_INVALID_ALLOCATION", InvalidArgument,
        "The requested allocation is not valid.";
    ErrorInvalidAgent = 0x1004, "HSA_STATUS_ERROR_INVALID_AGENT", InvalidArgument, "The agent is invalid.";
    ErrorInvalidRegion = 0x1005, "HSA_STATUS_ERROR_INVALID_REGION", InvalidArgument, "The memory region is invalid.";
    ErrorInvalidSignal = 0x1006, "HSA_STATUS_ERROR_INVALID_SIGNAL", InvalidArgument, "The signal is invalid.";
    ErrorInvalidQueue = 0x1007, "HSA_STATUS_ERROR_INVALID_QUEUE", InvalidArgument, "The queue is invalid.";
    ErrorOutOfResources = 0x1008, "HSA_STATUS_ERROR_OUT_OF_RESOURCES", ResourceExhausted,
        "The HSA runtime failed to allocate the necessary resources. This error may also occur when the HSA runtime needs to spawn threads or create internal OS-specific events.";
    ErrorInvalidPacketFormat = 0x1009, "HSA_STATUS_ERROR_INVALID_PACKET_FORMAT", InvalidArgument,
        "The AQL packet is malformed.";
    ErrorResourceFree = 0x100A, "HSA_STATUS_ERROR_RESOURCE_FREE", Internal,
        "An error has been detected while releasing a resource.";
    ErrorNotInitialized = 0x100B, "HSA_STATUS_ERROR_NOT_INITIALIZED", FailedPrecondition,
        "An API other than hsa_init has been invoked while the reference count of the HSA runtime is 0.";
    ErrorRefcountOverflow = 0x100C, "HSA_STATUS_ERROR_REFCOUNT_OVERFLOW", ResourceExhausted,
        "The maximum reference count for the object has been reached.";
    ErrorIncompatibleArguments = 0x100D, "HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS", Incompatible,
        "The arguments passed to a functions are not compatible.";
    ErrorInvalidIndex = 0x100E, "HSA_STATUS_ERROR_INVALID_INDEX", OutOfRange, "The index is invalid.";
    ErrorInvalidIsa = 0x100F, "HSA_STATUS_ERROR_INVALID_ISA", Incompatible,
        "The instruction set architecture is invalid.";
    ErrorInvalidCodeObject = 0x1010, "HSA_STATUS_ERROR_INVALID_CODE_OBJECT", InvalidArgument,
        "The code object is invalid.";
    ErrorInvalidExecutable = 0x1011, "HSA_STATUS_ERROR_INVALID_EXECUTABLE", InvalidArgument,
        "The executable is invalid.";
    ErrorFrozenExecutable = 0x1012, "HSA_STATUS_ERROR_FROZEN_EXECUTABLE", FailedPrecondition,
        "The executable is frozen.";
    ErrorInvalidSymbolName = 0x1013, "HSA_STATUS_ERROR_INVALID_SYMBOL_NAME", NotFound,
        "There is no symbol with the given name.";
    ErrorVariableAlreadyDefined = 0x1014, "HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED", FailedPrecondition,
        "The variable is already defined.";
    ErrorVariableUndefined = 0x1015, "HSA_STATUS_ERROR_VARIABLE_UNDEFINED", FailedPrecondition,
        "The variable is undefined.";
    ErrorException = 0x1016, "HSA_STATUS_ERROR_EXCEPTION", DataLoss,
        "An HSAIL operation resulted in a hardware exception.";
    ErrorInvalidIsaName = 0x1017, "HSA_STATUS_ERROR_INVALID_ISA_NAME", InvalidArgument,
        "The instruction set architecture name is invalid.";
    ErrorInvalidCodeSymbol = 0x1018, "HSA_STATUS_ERROR_INVALID_CODE_SYMBOL", InvalidArgument,
        "The code object symbol is invalid.";
    ErrorInvalidExecutableSymbol = 0x1019, "HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL", InvalidArgument,
        "The executable symbol is invalid.";
    ErrorInvalidFile = 0x1020, "HSA_STATUS_ERROR_INVALID_FILE", InvalidArgument,
        "The file descriptor is invalid.";
    ErrorInvalidCodeObjectReader = 0x1021, "HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER", InvalidArgument,
        "The code object reader is invalid.";
    ErrorInvalidCache = 0x1022, "HSA_STATUS_ERROR_INVALID_CACHE", InvalidArgument, "The cache is invalid.";
    ErrorInvalidWavefront = 0x1023, "HSA_STATUS_ERROR_INVALID_WAVEFRONT", InvalidArgument,
        "The wavefront is invalid.";
    ErrorInvalidSignalGroup = 0x1024, "HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP", InvalidArgument,
        "The signal group is invalid.";
    ErrorInvalidRuntimeState = 0x1025, "HSA_STATUS_ERROR_INVALID_RUNTIME_STATE", InvalidArgument,
        "The HSA runtime is not in the configuration state.";
    ErrorFatal = 0x1026, "HSA_STATUS_ERROR_FATAL", DataLoss,
        "The queue received an error that may require process termination.";
    ErrorInvalidMemoryPool = 40, "HSA_STATUS_ERROR_INVALID_MEMORY_POOL", InvalidArgument,
        "The memory pool is invalid.";
    ErrorMemoryApertureViolation = 41, "HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION", DataLoss,
        "Agent accessed memory beyond the maximum legal address.";
    ErrorIllegalInstruction = 42, "HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION", DataLoss,
        "Agent executed an invalid shader instruction.";
    ErrorMemoryFault = 43, "HSA_STATUS_ERROR_MEMORY_FAULT", DataLoss,
        "Agent attempted to access an inaccessible address.";
    CuMaskReduced = 44, "HSA_STATUS_CU_MASK_REDUCED", Unknown,
        "The CU mask was successfully set but the mask attempted to enable a CU which was disabled for the process.";
}

impl HsaStatus {
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
