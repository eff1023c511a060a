//! How an HSA export runs: on the runtime (none is
//! `HSA_STATUS_ERROR_NOT_INITIALIZED`), its answer written through the
//! caller's pointer, a failure the status returned.

use std::ffi::c_void;

use amdgpu_sim::HsaCode;

use super::ptr;
use super::runtime::{Runtime, runtime};
use crate::abi::*;

/// `hsa_status_t (*)(T, void*)`: the iteration callbacks.
pub type Callback<T> = Option<extern "C" fn(T, *mut c_void) -> hsa_status_t>;

/// An export's body: `Err` is the status returned.
pub(crate) type Call = Result<(), HsaCode>;

/// `HSA_STATUS_ERROR_INVALID_ARGUMENT`.
pub(crate) const INVALID: HsaCode = HsaCode::INVALID_ARGUMENT;

/// The status of an export's body.
pub(crate) fn status(call: Call) -> hsa_status_t {
    match call {
        Ok(()) => HSA_STATUS_SUCCESS,
        Err(code) => code.0,
    }
}

/// Runs `body` on the runtime; none is `HSA_STATUS_ERROR_NOT_INITIALIZED`.
pub(crate) fn on_runtime(body: impl FnOnce(&'static Runtime) -> Call) -> hsa_status_t {
    match runtime() {
        None => HSA_STATUS_ERROR_NOT_INITIALIZED,
        Some(rt) => status(body(rt)),
    }
}

/// Writes `value` to `out`, or `INVALID_ARGUMENT` for NULL.
///
/// # Safety
/// `out` is NULL or points at writable storage of `T`'s C type.
pub(crate) unsafe fn put<T: Copy>(out: *mut c_void, value: T) -> Call {
    // SAFETY: the caller's promise, passed on.
    if unsafe { ptr::write(out, value) } {
        Ok(())
    } else {
        Err(INVALID)
    }
}

/// Copies `bytes` (an info answer in C layout) to `out`, or
/// `INVALID_ARGUMENT` for NULL.
///
/// # Safety
/// `out` is NULL or has room for `bytes.len()` bytes: the C type of the
/// attribute `bytes` answers.
pub(crate) unsafe fn put_bytes(out: *mut c_void, bytes: &[u8]) -> Call {
    // SAFETY: the caller's promise, passed on.
    if unsafe { ptr::write_bytes(out, bytes) } {
        Ok(())
    } else {
        Err(INVALID)
    }
}

/// Answers a `*_get_info` call: NULL `value` and an attribute outside the
/// model are `INVALID_ARGUMENT` before the simulator is asked (as before a
/// call to ROCr); otherwise `answer`'s bytes are written to `value`.
///
/// # Safety
/// `value` is NULL or has room for the attribute's C type (the C
/// contract of every `*_get_info` call).
pub(crate) unsafe fn get_info<A>(
    value: *mut c_void,
    attribute: Option<A>,
    answer: impl FnOnce(A) -> Result<Vec<u8>, HsaCode>,
) -> Call {
    if value.is_null() {
        return Err(INVALID);
    }
    let bytes = answer(attribute.ok_or(INVALID)?)?;
    // SAFETY: the caller's promise; `bytes` is the attribute's C value.
    unsafe { put_bytes(value, &bytes) }
}

/// Hands each item to `callback`; a non-success return stops the
/// iteration and is returned (`HSA_STATUS_INFO_BREAK` included), as in ROCr.
pub(crate) fn iterate<T: Copy>(
    items: &[T],
    callback: Callback<T>,
    data: *mut c_void,
) -> hsa_status_t {
    let Some(callback) = callback else {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    };
    for &item in items {
        let status = callback(item, data);
        if status != HSA_STATUS_SUCCESS {
            return status;
        }
    }
    HSA_STATUS_SUCCESS
}
