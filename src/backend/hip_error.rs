//! `HipError`: the `hipError_t` values of `hip_runtime_api.h`.
//!
//! Backend calls return `Result<T, HipError>`. [`HipError::to_status`] gives
//! the [`Status`] IREE's `IREE_HIP_RETURN_IF_ERROR(syms, call, "hipCall")`
//! gives: message `HIP driver error '<name>' (<value>): <string>`, annotated
//! with the call. The status code comes from IREE's name table, applied by
//! exact numeric value rather than IREE's name-prefix match (which lets
//! `hipErrorInvalidDevice` shadow longer names).

use crate::status::{Status, StatusCode};

macro_rules! hip_errors {
    ($($variant:ident = $raw:literal, $name:literal, $code:ident, $desc:literal;)*) => {
        /// A non-success `hipError_t`.
        ///
        /// Deprecated aliases (`hipErrorMemoryAllocation`,
        /// `hipErrorInitializationError`, `hipErrorMapBufferObjectFailed`,
        /// `hipErrorInvalidResourceHandle`) share their value with the
        /// variant named here, as in the header.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum HipError {
            $(
                #[doc = $desc]
                $variant,
            )*
            /// A value the header does not define.
            Other(i32),
        }

        impl HipError {
            /// Every error the header defines (all but [`HipError::Other`]).
            pub const KNOWN: &'static [HipError] = &[$(HipError::$variant),*];

            /// The raw `hipError_t` value.
            pub const fn raw(self) -> i32 {
                match self {
                    $(HipError::$variant => $raw,)*
                    HipError::Other(raw) => raw,
                }
            }

            /// The error for a raw value; `None` for `hipSuccess` (0).
            pub const fn from_raw(raw: i32) -> Option<HipError> {
                match raw {
                    0 => None,
                    $($raw => Some(HipError::$variant),)*
                    other => Some(HipError::Other(other)),
                }
            }

            /// `hipGetErrorName`: the enumerator name, e.g. `hipErrorNoDevice`
            /// (`hipErrorUnknown` for values the header does not define, as ROCm does).
            pub const fn name(self) -> &'static str {
                match self {
                    $(HipError::$variant => $name,)*
                    HipError::Other(_) => "hipErrorUnknown",
                }
            }

            /// `hipGetErrorString`: ROCm's description, e.g. `no ROCm-capable device is detected`.
            pub const fn description(self) -> &'static str {
                match self {
                    $(HipError::$variant => $desc,)*
                    HipError::Other(_) => "unknown error",
                }
            }

            /// The IREE status code (IREE's `status_util.c` table, by value).
            pub const fn status_code(self) -> StatusCode {
                match self {
                    $(HipError::$variant => StatusCode::$code,)*
                    HipError::Other(_) => StatusCode::Unknown,
                }
            }
        }
    };
}

hip_errors! {
    InvalidValue = 1, "hipErrorInvalidValue", InvalidArgument, "invalid argument";
    OutOfMemory = 2, "hipErrorOutOfMemory", ResourceExhausted, "out of memory";
    NotInitialized = 3, "hipErrorNotInitialized", Internal, "initialization error";
    Deinitialized = 4, "hipErrorDeinitialized", Internal, "driver shutting down";
    ProfilerDisabled = 5, "hipErrorProfilerDisabled", Unknown, "profiler disabled while using external profiling tool";
    ProfilerNotInitialized = 6, "hipErrorProfilerNotInitialized", Unknown, "profiler is not initialized";
    ProfilerAlreadyStarted = 7, "hipErrorProfilerAlreadyStarted", Unknown, "profiler already started";
    ProfilerAlreadyStopped = 8, "hipErrorProfilerAlreadyStopped", Unknown, "profiler already stopped";
    InvalidConfiguration = 9, "hipErrorInvalidConfiguration", FailedPrecondition, "invalid configuration argument";
    InvalidPitchValue = 12, "hipErrorInvalidPitchValue", FailedPrecondition, "invalid pitch argument";
    InvalidSymbol = 13, "hipErrorInvalidSymbol", FailedPrecondition, "invalid device symbol";
    InvalidDevicePointer = 17, "hipErrorInvalidDevicePointer", FailedPrecondition, "invalid device pointer";
    InvalidMemcpyDirection = 21, "hipErrorInvalidMemcpyDirection", FailedPrecondition, "invalid copy direction for memcpy";
    InsufficientDriver = 35, "hipErrorInsufficientDriver", FailedPrecondition, "driver version is insufficient for runtime version";
    MissingConfiguration = 52, "hipErrorMissingConfiguration", FailedPrecondition, "__global__ function call is not configured";
    PriorLaunchFailure = 53, "hipErrorPriorLaunchFailure", FailedPrecondition, "unspecified launch failure in prior launch";
    InvalidDeviceFunction = 98, "hipErrorInvalidDeviceFunction", Internal, "invalid device function";
    NoDevice = 100, "hipErrorNoDevice", FailedPrecondition, "no ROCm-capable device is detected";
    InvalidDevice = 101, "hipErrorInvalidDevice", FailedPrecondition, "invalid device ordinal";
    InvalidImage = 200, "hipErrorInvalidImage", FailedPrecondition, "device kernel image is invalid";
    InvalidContext = 201, "hipErrorInvalidContext", FailedPrecondition, "invalid device context";
    ContextAlreadyCurrent = 202, "hipErrorContextAlreadyCurrent", FailedPrecondition, "context is already current context";
    MapFailed = 205, "hipErrorMapFailed", Internal, "mapping of buffer object failed";
    UnmapFailed = 206, "hipErrorUnmapFailed", Internal, "unmapping of buffer object failed";
    ArrayIsMapped = 207, "hipErrorArrayIsMapped", Internal, "array is mapped";
    AlreadyMapped = 208, "hipErrorAlreadyMapped", AlreadyExists, "resource already mapped";
    NoBinaryForGpu = 209, "hipErrorNoBinaryForGpu", Internal, "no kernel image is available for execution on the device";
    AlreadyAcquired = 210, "hipErrorAlreadyAcquired", AlreadyExists, "resource already acquired";
    NotMapped = 211, "hipErrorNotMapped", Internal, "resource not mapped";
    NotMappedAsArray = 212, "hipErrorNotMappedAsArray", Internal, "resource not mapped as array";
    NotMappedAsPointer = 213, "hipErrorNotMappedAsPointer", Internal, "resource not mapped as pointer";
    EccNotCorrectable = 214, "hipErrorECCNotCorrectable", DataLoss, "uncorrectable ECC error encountered";
    UnsupportedLimit = 215, "hipErrorUnsupportedLimit", Internal, "limit is not supported on this architecture";
    ContextAlreadyInUse = 216, "hipErrorContextAlreadyInUse", AlreadyExists, "exclusive-thread device already in use by a different thread";
    PeerAccessUnsupported = 217, "hipErrorPeerAccessUnsupported", Internal, "peer access is not supported between these two devices";
    InvalidKernelFile = 218, "hipErrorInvalidKernelFile", Internal, "invalid kernel file";
    InvalidGraphicsContext = 219, "hipErrorInvalidGraphicsContext", Internal, "invalid OpenGL or DirectX context";
    InvalidSource = 300, "hipErrorInvalidSource", FailedPrecondition, "device kernel image is invalid";
    FileNotFound = 301, "hipErrorFileNotFound", Unknown, "file not found";
    SharedObjectSymbolNotFound = 302, "hipErrorSharedObjectSymbolNotFound", NotFound, "shared object symbol not found";
    SharedObjectInitFailed = 303, "hipErrorSharedObjectInitFailed", FailedPrecondition, "shared object initialization failed";
    OperatingSystem = 304, "hipErrorOperatingSystem", Internal, "OS call failed or operation not supported on this OS";
    InvalidHandle = 400, "hipErrorInvalidHandle", FailedPrecondition, "invalid resource handle";
    IllegalState = 401, "hipErrorIllegalState", Internal, "the operation cannot be performed in the present state";
    NotFound = 500, "hipErrorNotFound", NotFound, "named symbol not found";
    NotReady = 600, "hipErrorNotReady", Unavailable, "device not ready";
    IllegalAddress = 700, "hipErrorIllegalAddress", Internal, "an illegal memory access was encountered";
    LaunchOutOfResources = 701, "hipErrorLaunchOutOfResources", ResourceExhausted, "too many resources requested for launch";
    LaunchTimeOut = 702, "hipErrorLaunchTimeOut", DeadlineExceeded, "the launch timed out and was terminated";
    PeerAccessAlreadyEnabled = 704, "hipErrorPeerAccessAlreadyEnabled", AlreadyExists, "peer access is already enabled";
    PeerAccessNotEnabled = 705, "hipErrorPeerAccessNotEnabled", Internal, "peer access has not been enabled";
    SetOnActiveProcess = 708, "hipErrorSetOnActiveProcess", Internal, "cannot set while device is active in this process";
    ContextIsDestroyed = 709, "hipErrorContextIsDestroyed", Internal, "context is destroyed";
    Assert = 710, "hipErrorAssert", Internal, "device-side assert triggered";
    HostMemoryAlreadyRegistered = 712, "hipErrorHostMemoryAlreadyRegistered", AlreadyExists, "part or all of the requested memory range is already mapped";
    HostMemoryNotRegistered = 713, "hipErrorHostMemoryNotRegistered", Internal, "pointer does not correspond to a registered memory region";
    LaunchFailure = 719, "hipErrorLaunchFailure", Internal, "unspecified launch failure";
    CooperativeLaunchTooLarge = 720, "hipErrorCooperativeLaunchTooLarge", Internal, "too many blocks in cooperative launch";
    NotSupported = 801, "hipErrorNotSupported", Unavailable, "operation not supported";
    StreamCaptureUnsupported = 900, "hipErrorStreamCaptureUnsupported", Internal, "operation not permitted when stream is capturing";
    StreamCaptureInvalidated = 901, "hipErrorStreamCaptureInvalidated", Internal, "operation failed due to a previous error during capture";
    StreamCaptureMerge = 902, "hipErrorStreamCaptureMerge", Internal, "operation would result in a merge of separate capture sequences";
    StreamCaptureUnmatched = 903, "hipErrorStreamCaptureUnmatched", Internal, "capture was not ended in the same stream as it began";
    StreamCaptureUnjoined = 904, "hipErrorStreamCaptureUnjoined", Internal, "capturing stream has unjoined work";
    StreamCaptureIsolation = 905, "hipErrorStreamCaptureIsolation", Internal, "dependency created on uncaptured work in another stream";
    StreamCaptureImplicit = 906, "hipErrorStreamCaptureImplicit", Internal, "operation would make the legacy stream depend on a capturing blocking stream";
    CapturedEvent = 907, "hipErrorCapturedEvent", Internal, "operation not permitted on an event last recorded in a capturing stream";
    StreamCaptureWrongThread = 908, "hipErrorStreamCaptureWrongThread", Internal, "attempt to terminate a thread-local capture sequence from another thread";
    GraphExecUpdateFailure = 910, "hipErrorGraphExecUpdateFailure", Internal, "the graph update was not performed because it included changes which violated constraints specific to instantiated graph update";
    Unknown = 999, "hipErrorUnknown", Unknown, "unknown error";
    RuntimeMemory = 1052, "hipErrorRuntimeMemory", Internal, "runtime memory call returned error";
    RuntimeOther = 1053, "hipErrorRuntimeOther", Internal, "runtime call other than memory returned error";
}

impl HipError {
    /// Converts a raw C return value: `Ok(())` for `hipSuccess`, the error otherwise.
    pub const fn check(raw: i32) -> Result<(), HipError> {
        match HipError::from_raw(raw) {
            None => Ok(()),
            Some(error) => Err(error),
        }
    }

    /// The IREE [`Status`] for this failure of `call`: IREE's message
    /// `HIP driver error '<name>' (<value>): <string>` with the call name as
    /// its annotation, as `IREE_HIP_RETURN_IF_ERROR(..., "hipCall")` builds it.
    pub fn to_status(self, call: &str) -> Status {
        self.to_status_with(call, self.name(), self.description())
    }

    /// Like [`HipError::to_status`], with the name and string the runtime's
    /// own `hipGetErrorName`/`hipGetErrorString` returned (ROCm 5 returns
    /// the name for both; the real backend passes what it got).
    pub fn to_status_with(self, call: &str, name: &str, string: &str) -> Status {
        Status::new(
            self.status_code(),
            format!("HIP driver error '{name}' ({}): {string}", self.raw()),
        )
        .annotate(call)
    }
}

impl std::fmt::Display for HipError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.name(), self.raw())
    }
}

impl std::error::Error for HipError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_round_trips_for_every_known_error() {
        for &error in HipError::KNOWN {
            assert_eq!(HipError::from_raw(error.raw()), Some(error), "{error}");
            assert!(error.name().starts_with("hipError"));
        }
        assert_eq!(HipError::from_raw(0), None);
        assert_eq!(HipError::from_raw(4242), Some(HipError::Other(4242)));
    }

    #[test]
    fn codes_follow_iree_table_by_value() {
        // Names that IREE's prefix match gets right only by list order.
        assert_eq!(
            HipError::InvalidDevicePointer.status_code(),
            StatusCode::FailedPrecondition
        );
        assert_eq!(
            HipError::InvalidDeviceFunction.status_code(),
            StatusCode::Internal
        );
        assert_eq!(
            HipError::NotMappedAsArray.status_code(),
            StatusCode::Internal
        );
        assert_eq!(
            HipError::NoDevice.status_code(),
            StatusCode::FailedPrecondition
        );
        assert_eq!(
            HipError::OutOfMemory.status_code(),
            StatusCode::ResourceExhausted
        );
        assert_eq!(
            HipError::LaunchTimeOut.status_code(),
            StatusCode::DeadlineExceeded
        );
        assert_eq!(
            HipError::NotSupported.status_code(),
            StatusCode::Unavailable
        );
        assert_eq!(
            HipError::EccNotCorrectable.status_code(),
            StatusCode::DataLoss
        );
        assert_eq!(
            HipError::PeerAccessAlreadyEnabled.status_code(),
            StatusCode::AlreadyExists
        );
        assert_eq!(HipError::Other(77).status_code(), StatusCode::Unknown);
    }

    #[test]
    fn to_status_renders_like_iree() {
        let status = HipError::NoDevice.to_status("hipGetDeviceCount");
        assert_eq!(status.code(), StatusCode::FailedPrecondition);
        assert_eq!(
            status.to_string(),
            "FAILED_PRECONDITION; HIP driver error 'hipErrorNoDevice' (100): \
             no ROCm-capable device is detected; hipGetDeviceCount"
        );
    }
}
