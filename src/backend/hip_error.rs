//! `HipError`: the `hipError_t` values of `hip_runtime_api.h` (values,
//! names and descriptions from `amdgpu-sys`) as a typed error.
//!
//! Backend calls return `Result<T, HipError>`. [`HipError::to_status`] gives
//! the [`Status`] IREE's `IREE_HIP_RETURN_IF_ERROR(syms, call, "hipCall")`
//! gives: message `HIP driver error '<name>' (<value>): <string>`, annotated
//! with the call. The status code comes from IREE's name table, applied by
//! exact numeric value rather than IREE's name-prefix match (which lets
//! `hipErrorInvalidDevice` shadow longer names).

// The C enumerators keep their C names (`hipErrorNoDevice`) in the tables.
#![allow(non_upper_case_globals)]

use amdgpu_sys::hip_error::*;

use crate::status::{Status, StatusCode};

macro_rules! hip_errors {
    ($($variant:ident = $raw:ident => $code:ident;)*) => {
        /// A non-success `hipError_t`.
        ///
        /// Deprecated aliases (`hipErrorMemoryAllocation`,
        /// `hipErrorInitializationError`, `hipErrorMapBufferObjectFailed`,
        /// `hipErrorInvalidResourceHandle`) share their value with the
        /// variant named here, as in the header. Values, names and
        /// descriptions are `amdgpu-sys`'s.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum HipError {
            $(
                #[doc = concat!("`", stringify!($raw), "`.")]
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
                    hipSuccess => None,
                    $($raw => Some(HipError::$variant),)*
                    other => Some(HipError::Other(other)),
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
    InvalidValue = hipErrorInvalidValue => InvalidArgument;
    OutOfMemory = hipErrorOutOfMemory => ResourceExhausted;
    NotInitialized = hipErrorNotInitialized => Internal;
    Deinitialized = hipErrorDeinitialized => Internal;
    ProfilerDisabled = hipErrorProfilerDisabled => Unknown;
    ProfilerNotInitialized = hipErrorProfilerNotInitialized => Unknown;
    ProfilerAlreadyStarted = hipErrorProfilerAlreadyStarted => Unknown;
    ProfilerAlreadyStopped = hipErrorProfilerAlreadyStopped => Unknown;
    InvalidConfiguration = hipErrorInvalidConfiguration => FailedPrecondition;
    InvalidPitchValue = hipErrorInvalidPitchValue => FailedPrecondition;
    InvalidSymbol = hipErrorInvalidSymbol => FailedPrecondition;
    InvalidDevicePointer = hipErrorInvalidDevicePointer => FailedPrecondition;
    InvalidMemcpyDirection = hipErrorInvalidMemcpyDirection => FailedPrecondition;
    InsufficientDriver = hipErrorInsufficientDriver => FailedPrecondition;
    MissingConfiguration = hipErrorMissingConfiguration => FailedPrecondition;
    PriorLaunchFailure = hipErrorPriorLaunchFailure => FailedPrecondition;
    InvalidDeviceFunction = hipErrorInvalidDeviceFunction => Internal;
    NoDevice = hipErrorNoDevice => FailedPrecondition;
    InvalidDevice = hipErrorInvalidDevice => FailedPrecondition;
    InvalidImage = hipErrorInvalidImage => FailedPrecondition;
    InvalidContext = hipErrorInvalidContext => FailedPrecondition;
    ContextAlreadyCurrent = hipErrorContextAlreadyCurrent => FailedPrecondition;
    MapFailed = hipErrorMapFailed => Internal;
    UnmapFailed = hipErrorUnmapFailed => Internal;
    ArrayIsMapped = hipErrorArrayIsMapped => Internal;
    AlreadyMapped = hipErrorAlreadyMapped => AlreadyExists;
    NoBinaryForGpu = hipErrorNoBinaryForGpu => Internal;
    AlreadyAcquired = hipErrorAlreadyAcquired => AlreadyExists;
    NotMapped = hipErrorNotMapped => Internal;
    NotMappedAsArray = hipErrorNotMappedAsArray => Internal;
    NotMappedAsPointer = hipErrorNotMappedAsPointer => Internal;
    EccNotCorrectable = hipErrorECCNotCorrectable => DataLoss;
    UnsupportedLimit = hipErrorUnsupportedLimit => Internal;
    ContextAlreadyInUse = hipErrorContextAlreadyInUse => AlreadyExists;
    PeerAccessUnsupported = hipErrorPeerAccessUnsupported => Internal;
    InvalidKernelFile = hipErrorInvalidKernelFile => Internal;
    InvalidGraphicsContext = hipErrorInvalidGraphicsContext => Internal;
    InvalidSource = hipErrorInvalidSource => FailedPrecondition;
    FileNotFound = hipErrorFileNotFound => Unknown;
    SharedObjectSymbolNotFound = hipErrorSharedObjectSymbolNotFound => NotFound;
    SharedObjectInitFailed = hipErrorSharedObjectInitFailed => FailedPrecondition;
    OperatingSystem = hipErrorOperatingSystem => Internal;
    InvalidHandle = hipErrorInvalidHandle => FailedPrecondition;
    IllegalState = hipErrorIllegalState => Internal;
    NotFound = hipErrorNotFound => NotFound;
    NotReady = hipErrorNotReady => Unavailable;
    IllegalAddress = hipErrorIllegalAddress => Internal;
    LaunchOutOfResources = hipErrorLaunchOutOfResources => ResourceExhausted;
    LaunchTimeOut = hipErrorLaunchTimeOut => DeadlineExceeded;
    PeerAccessAlreadyEnabled = hipErrorPeerAccessAlreadyEnabled => AlreadyExists;
    PeerAccessNotEnabled = hipErrorPeerAccessNotEnabled => Internal;
    SetOnActiveProcess = hipErrorSetOnActiveProcess => Internal;
    ContextIsDestroyed = hipErrorContextIsDestroyed => Internal;
    Assert = hipErrorAssert => Internal;
    HostMemoryAlreadyRegistered = hipErrorHostMemoryAlreadyRegistered => AlreadyExists;
    HostMemoryNotRegistered = hipErrorHostMemoryNotRegistered => Internal;
    LaunchFailure = hipErrorLaunchFailure => Internal;
    CooperativeLaunchTooLarge = hipErrorCooperativeLaunchTooLarge => Internal;
    NotSupported = hipErrorNotSupported => Unavailable;
    StreamCaptureUnsupported = hipErrorStreamCaptureUnsupported => Internal;
    StreamCaptureInvalidated = hipErrorStreamCaptureInvalidated => Internal;
    StreamCaptureMerge = hipErrorStreamCaptureMerge => Internal;
    StreamCaptureUnmatched = hipErrorStreamCaptureUnmatched => Internal;
    StreamCaptureUnjoined = hipErrorStreamCaptureUnjoined => Internal;
    StreamCaptureIsolation = hipErrorStreamCaptureIsolation => Internal;
    StreamCaptureImplicit = hipErrorStreamCaptureImplicit => Internal;
    CapturedEvent = hipErrorCapturedEvent => Internal;
    StreamCaptureWrongThread = hipErrorStreamCaptureWrongThread => Internal;
    GraphExecUpdateFailure = hipErrorGraphExecUpdateFailure => Internal;
    Unknown = hipErrorUnknown => Unknown;
    RuntimeMemory = hipErrorRuntimeMemory => Internal;
    RuntimeOther = hipErrorRuntimeOther => Internal;
}

impl HipError {
    /// `hipGetErrorName`: the enumerator name, e.g. `hipErrorNoDevice`
    /// (`hipErrorUnknown` for values the header does not define, as ROCm does).
    pub const fn name(self) -> &'static str {
        match hip_error_entry(self.raw()) {
            Some(entry) => entry.name,
            None => "hipErrorUnknown",
        }
    }

    /// `hipGetErrorString`: ROCm's description, e.g. `no ROCm-capable device is detected`.
    pub const fn description(self) -> &'static str {
        match hip_error_entry(self.raw()) {
            Some(entry) => entry.description,
            None => "unknown error",
        }
    }

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
