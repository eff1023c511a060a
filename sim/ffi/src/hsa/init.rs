//! HSA's system calls (`hsa.h`): `hsa_init` (which creates the runtime
//! from the environment on first use), `hsa_shut_down` (which rewrites the
//! report), status texts and the system attributes.

use std::ffi::{c_char, c_void};

use amdgpu_sys::hsa_info::SystemInfo;

use crate::abi::*;
use crate::core::exports::c_exports;
use crate::core::hsa_call::{get_info, on_runtime};
use crate::core::ptr;
use crate::core::runtime::runtime;
use crate::core::texts;

c_exports! {
    /// `hsa_init`: creates the node from the environment on first use.
    fn hsa_init() -> hsa_status_t {
        match runtime() {
            None => HSA_STATUS_ERROR_OUT_OF_RESOURCES,
            Some(rt) => match rt.sim.hsa_init() {
                Ok(()) => HSA_STATUS_SUCCESS,
                Err(code) => code.0,
            },
        }
    }

    /// `hsa_shut_down`; rewrites the report file and the timeline.
    fn hsa_shut_down() -> hsa_status_t {
        on_runtime(|rt| {
            let result = rt.sim.hsa_shut_down();
            rt.write_report();
            if let Some(timeline) = rt.timeline {
                timeline.write();
            }
            result
        })
    }

    /// `hsa_status_string`: a static text for every status the headers define.
    ///
    /// # Safety
    /// `status_string` is NULL or points at a writable `const char*`.
    unsafe fn hsa_status_string(status: hsa_status_t, status_string: *mut *const c_char) -> hsa_status_t {
        let Some(text) = texts::hsa_status_string(status) else {
            return HSA_STATUS_ERROR_INVALID_ARGUMENT;
        };
        // SAFETY: the caller's contract (above).
        if unsafe { ptr::write(status_string.cast(), text.as_ptr()) } {
            HSA_STATUS_SUCCESS
        } else {
            HSA_STATUS_ERROR_INVALID_ARGUMENT
        }
    }

    /// `hsa_system_get_info`.
    ///
    /// # Safety
    /// `value` is NULL or has room for the attribute's C type.
    unsafe fn hsa_system_get_info(attribute: u32, value: *mut c_void) -> hsa_status_t {
        on_runtime(|rt| {
            // SAFETY: the caller's contract (above).
            unsafe {
                get_info(value, SystemInfo::from_raw(attribute), |a| {
                    rt.sim.system_get_info(a)
                })
            }
        })
    }
}
