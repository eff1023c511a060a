//! HIP's errors: the last failure (`hipGetLastError` takes it,
//! `hipPeekAtLastError` reads it; every failing call records it) and the
//! names and texts of every error the header defines.

use std::ffi::c_char;

use crate::abi::*;
use crate::core::exports::c_exports;
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
}
