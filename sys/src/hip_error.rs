//! `hipError_t`: every error `hip_runtime_api.h` (HIP 5.2) defines, with the
//! text ROCm's `hipGetErrorString` gives it.

#![allow(non_camel_case_types, non_upper_case_globals)]

/// `hipError_t`.
pub type hipError_t = i32;

crate::codes::code_table! {
    /// Every error the header defines, `hipSuccess` first. Deprecated
    /// aliases share their value with the name listed here.
    HIP_ERRORS,
    /// The header's entry for `value`, if it defines it.
    hip_error_entry: hipError_t {
    hipSuccess = 0, "no error";
    hipErrorInvalidValue = 1, "invalid argument";
    hipErrorOutOfMemory = 2, "out of memory";
    hipErrorNotInitialized = 3, "initialization error";
    hipErrorDeinitialized = 4, "driver shutting down";
    hipErrorProfilerDisabled = 5, "profiler disabled while using external profiling tool";
    hipErrorProfilerNotInitialized = 6, "profiler is not initialized";
    hipErrorProfilerAlreadyStarted = 7, "profiler already started";
    hipErrorProfilerAlreadyStopped = 8, "profiler already stopped";
    hipErrorInvalidConfiguration = 9, "invalid configuration argument";
    hipErrorInvalidPitchValue = 12, "invalid pitch argument";
    hipErrorInvalidSymbol = 13, "invalid device symbol";
    hipErrorInvalidDevicePointer = 17, "invalid device pointer";
    hipErrorInvalidMemcpyDirection = 21, "invalid copy direction for memcpy";
    hipErrorInsufficientDriver = 35, "driver version is insufficient for runtime version";
    hipErrorMissingConfiguration = 52, "__global__ function call is not configured";
    hipErrorPriorLaunchFailure = 53, "unspecified launch failure in prior launch";
    hipErrorInvalidDeviceFunction = 98, "invalid device function";
    hipErrorNoDevice = 100, "no ROCm-capable device is detected";
    hipErrorInvalidDevice = 101, "invalid device ordinal";
    hipErrorInvalidImage = 200, "device kernel image is invalid";
    hipErrorInvalidContext = 201, "invalid device context";
    hipErrorContextAlreadyCurrent = 202, "context is already current context";
    hipErrorMapFailed = 205, "mapping of buffer object failed";
    hipErrorUnmapFailed = 206, "unmapping of buffer object failed";
    hipErrorArrayIsMapped = 207, "array is mapped";
    hipErrorAlreadyMapped = 208, "resource already mapped";
    hipErrorNoBinaryForGpu = 209, "no kernel image is available for execution on the device";
    hipErrorAlreadyAcquired = 210, "resource already acquired";
    hipErrorNotMapped = 211, "resource not mapped";
    hipErrorNotMappedAsArray = 212, "resource not mapped as array";
    hipErrorNotMappedAsPointer = 213, "resource not mapped as pointer";
    hipErrorECCNotCorrectable = 214, "uncorrectable ECC error encountered";
    hipErrorUnsupportedLimit = 215, "limit is not supported on this architecture";
    hipErrorContextAlreadyInUse = 216, "exclusive-thread device already in use by a different thread";
    hipErrorPeerAccessUnsupported = 217, "peer access is not supported between these two devices";
    hipErrorInvalidKernelFile = 218, "invalid kernel file";
    hipErrorInvalidGraphicsContext = 219, "invalid OpenGL or DirectX context";
    hipErrorInvalidSource = 300, "device kernel image is invalid";
    hipErrorFileNotFound = 301, "file not found";
    hipErrorSharedObjectSymbolNotFound = 302, "shared object symbol not found";
    hipErrorSharedObjectInitFailed = 303, "shared object initialization failed";
    hipErrorOperatingSystem = 304, "OS call failed or operation not supported on this OS";
    hipErrorInvalidHandle = 400, "invalid resource handle";
    hipErrorIllegalState = 401, "the operation cannot be performed in the present state";
    hipErrorNotFound = 500, "named symbol not found";
    hipErrorNotReady = 600, "device not ready";
    hipErrorIllegalAddress = 700, "an illegal memory access was encountered";
    hipErrorLaunchOutOfResources = 701, "too many resources requested for launch";
    hipErrorLaunchTimeOut = 702, "the launch timed out and was terminated";
    hipErrorPeerAccessAlreadyEnabled = 704, "peer access is already enabled";
    hipErrorPeerAccessNotEnabled = 705, "peer access has not been enabled";
    hipErrorSetOnActiveProcess = 708, "cannot set while device is active in this process";
    hipErrorContextIsDestroyed = 709, "context is destroyed";
    hipErrorAssert = 710, "device-side assert triggered";
    hipErrorHostMemoryAlreadyRegistered = 712,
        "part or all of the requested memory range is already mapped";
    hipErrorHostMemoryNotRegistered = 713,
        "pointer does not correspond to a registered memory region";
    hipErrorLaunchFailure = 719, "unspecified launch failure";
    hipErrorCooperativeLaunchTooLarge = 720, "too many blocks in cooperative launch";
    hipErrorNotSupported = 801, "operation not supported";
    hipErrorStreamCaptureUnsupported = 900, "operation not permitted when stream is capturing";
    hipErrorStreamCaptureInvalidated = 901,
        "operation failed due to a previous error during capture";
    hipErrorStreamCaptureMerge = 902,
        "operation would result in a merge of separate capture sequences";
    hipErrorStreamCaptureUnmatched = 903, "capture was not ended in the same stream as it began";
    hipErrorStreamCaptureUnjoined = 904, "capturing stream has unjoined work";
    hipErrorStreamCaptureIsolation = 905,
        "dependency created on uncaptured work in another stream";
    hipErrorStreamCaptureImplicit = 906,
        "operation would make the legacy stream depend on a capturing blocking stream";
    hipErrorCapturedEvent = 907,
        "operation not permitted on an event last recorded in a capturing stream";
    hipErrorStreamCaptureWrongThread = 908,
        "attempt to terminate a thread-local capture sequence from another thread";
    hipErrorGraphExecUpdateFailure = 910,
        "the graph update was not performed because it included changes which violated constraints specific to instantiated graph update";
    hipErrorUnknown = 999, "unknown error";
    hipErrorRuntimeMemory = 1052, "runtime memory call returned error";
    hipErrorRuntimeOther = 1053, "runtime call other than memory returned error";
    }
}

/// `hipErrorInvalidResourceHandle`: the deprecated name of [`hipErrorInvalidHandle`].
pub const hipErrorInvalidResourceHandle: hipError_t = hipErrorInvalidHandle;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_texts_are_rocms() {
        let entry = hip_error_entry(hipErrorNoDevice).expect("listed");
        assert_eq!(
            (entry.name, entry.description),
            ("hipErrorNoDevice", "no ROCm-capable device is detected")
        );
        assert_eq!(hip_error_entry(4242), None);
    }
}
