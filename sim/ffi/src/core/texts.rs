//! The vendor libraries' status texts as C strings: `hsa_status_string`,
//! `hipGetErrorName` and `hipGetErrorString` return pointers into
//! `amdgpu-sys`'s static tables.

use std::ffi::CStr;

use amdgpu_sys::hip_error::hip_error_entry;
use amdgpu_sys::hsa_status::hsa_status_entry;

/// `hsa_status_string`'s text (`NAME: description`), if the headers define `status`.
pub(crate) fn hsa_status_string(status: u32) -> Option<&'static CStr> {
    hsa_status_entry(status).map(|entry| entry.c_text)
}

/// `hipGetErrorName`'s and `hipGetErrorString`'s texts, if the header defines `error`.
pub(crate) fn hip_error_texts(error: i32) -> Option<(&'static CStr, &'static CStr)> {
    hip_error_entry(error).map(|entry| (entry.c_name, entry.c_description))
}
