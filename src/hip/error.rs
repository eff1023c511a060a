//! HIP errors as `Status`: the runtime's own error name and string with the
//! failed call as the annotation, as IREE's HIP driver reports them.

use crate::backend::{Hip, HipError};
use crate::status::Status;

/// The status for a failed HIP call, with the runtime's own error name and
/// string (IREE forces `HIP_ERROR_UNKNOWN`/`unknown error` for
/// `hipErrorUnknown`) and the call as the annotation.
pub fn hip_status(hip: &dyn Hip, error: HipError, call: &str) -> Status {
    if error == HipError::Unknown {
        return error.to_status_with(call, "HIP_ERROR_UNKNOWN", "unknown error");
    }
    let name = hip.get_error_name(error);
    let string = hip.get_error_string(error);
    error.to_status_with(call, &name, &string)
}
