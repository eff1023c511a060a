//! HIP's errors: the last failure (`hipGetLastError` takes it,
//! `hipPeekAtLastError` reads it; every failing call records it) and the
//! names and texts of every error the header defines (also through the
//! driver API's `hipDrvGetErrorName`/`hipDrvGetErrorString`).

use std::ffi::c_char;

use amdgpu_sim::HipCode;

use crate::abi::*;
use crate::core::exports::c_exports;
use crate::core::hip_call::put;
use crate::core::runtime::last_error;
use crate::core::texts::hip_error_texts;

c_exports! {
    /// `hipGetLastError`: the last failure, then `hipSuccess` again.
    fn hipGetLastError() -> hipError_t {
        last_error().take()
    }

    /// `hipPeekAtLastError`: the last failure, left in place.
    fn hipPeekAtLastError() -> hipError_t {
        last_error().peek()
    }

    /// `hipGetErrorName`: `hipErrorUnknown` for a value HIP does not define.
    fn hipGetErrorName(hip_error: hipError_t) -> *const c_char {
        hip_error_texts(hip_error).map_or(c"hipErrorUnknown".as_ptr(), |(name, _)| name.as_ptr())
    }

    /// `hipGetErrorString`: `unknown error` for a value HIP does not define.
    fn hipGetErrorString(hip_error: hipError_t) -> *const c_char {
        hip_error_texts(hip_error).map_or(c"unknown error".as_ptr(), |(_, text)| text.as_ptr())
    }

    /// `hipDrvGetErrorName(error, &name)`: the name, and
    /// `hipErrorInvalidValue` (with `hipErrorUnknown`'s name written) for a
    /// value HIP does not define, as clr's hip_error.cpp answers.
    ///
    /// # Safety
    /// `name` is NULL or points at a writable `const char*`.
    unsafe fn hipDrvGetErrorName(hip_error: hipError_t, name: *mut *const c_char) -> hipError_t {
        let text = hip_error_texts(hip_error).map(|(name, _)| name.as_ptr());
        // SAFETY: the caller's contract (above).
        driver_answer(unsafe { put(name, text.unwrap_or(c"hipErrorUnknown".as_ptr())) }, text.is_some() || hip_error == hipErrorUnknown)
    }

    /// `hipDrvGetErrorString(error, &text)`: as `hipDrvGetErrorName`, with
    /// the description (`unknown error` for a value HIP does not define).
    ///
    /// # Safety
    /// `text` is NULL or points at a writable `const char*`.
    unsafe fn hipDrvGetErrorString(hip_error: hipError_t, text: *mut *const c_char) -> hipError_t {
        let found = hip_error_texts(hip_error).map(|(_, text)| text.as_ptr());
        // SAFETY: the caller's contract (above).
        driver_answer(unsafe { put(text, found.unwrap_or(c"unknown error".as_ptr())) }, found.is_some() || hip_error == hipErrorUnknown)
    }
}

/// What the driver API's error queries return: `hipErrorInvalidValue` for
/// a NULL output or an error HIP does not define. Like clr's, they do not
/// become the last error.
fn driver_answer(written: Result<(), HipCode>, known: bool) -> hipError_t {
    match (written, known) {
        (Ok(()), true) => hipSuccess,
        _ => hipErrorInvalidValue,
    }
}
