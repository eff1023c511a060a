//! The driver API's copies, whose direction is in the name
//! (`hipMemcpyHtoD`, `hipMemcpyDtoH`, `hipMemcpyDtoD` and their `Async`
//! forms; `hipMemcpyHtoDAsync` is with the other copies in
//! `super::memory`): `hipMemcpy`/`hipMemcpyAsync` with the kind the name
//! says, so pageable host memory is treated as those treat it.

use std::ffi::{c_int, c_void};

use super::memory::copy;
use crate::abi::*;
use crate::core::exports::c_exports;
use crate::core::hip_call::{call, call_with, handle};

/// `hipMemcpyHostToDevice`, `hipMemcpyDeviceToHost`, `hipMemcpyDeviceToDevice`.
const HOST_TO_DEVICE: c_int = 1;
const DEVICE_TO_HOST: c_int = 2;
const DEVICE_TO_DEVICE: c_int = 3;

c_exports! {
    /// `hipMemcpyHtoD(dst, src, size)`: synchronous, on the null stream.
    ///
    /// # Safety
    /// `src` is `size` readable bytes of the caller's host memory.
    unsafe fn hipMemcpyHtoD(dst: *mut c_void, src: *mut c_void, size: usize) -> hipError_t {
        // SAFETY: the caller's contract (above).
        call("hipMemcpyHtoD", |rt| unsafe { copy(rt, dst, src, size, HOST_TO_DEVICE, std::ptr::null_mut()) })
    }

    /// `hipMemcpyDtoH(dst, src, size)`: synchronous, on the null stream.
    ///
    /// # Safety
    /// `dst` is `size` writable bytes of the caller's host memory.
    unsafe fn hipMemcpyDtoH(dst: *mut c_void, src: *mut c_void, size: usize) -> hipError_t {
        // SAFETY: the caller's contract (above).
        call("hipMemcpyDtoH", |rt| unsafe { copy(rt, dst, src, size, DEVICE_TO_HOST, std::ptr::null_mut()) })
    }

    /// `hipMemcpyDtoHAsync(dst, src, size, stream)`.
    ///
    /// # Safety
    /// `dst` is `size` writable bytes of the caller's host memory, live until the copy has run in stream order.
    unsafe fn hipMemcpyDtoHAsync(dst: *mut c_void, src: *mut c_void, size: usize, stream: handle) -> hipError_t {
        // SAFETY: the caller's contract (above).
        call_with("hipMemcpyDtoHAsync", || format!("{dst:?}, {src:?}, {size}, {stream:?}"), |rt| unsafe { copy(rt, dst, src, size, DEVICE_TO_HOST, stream) })
    }

    /// `hipMemcpyDtoD(dst, src, size)`: synchronous, on the null stream.
    ///
    /// # Safety
    /// Both sides are device memory; a side outside it is `size` bytes of the caller's host memory.
    unsafe fn hipMemcpyDtoD(dst: *mut c_void, src: *mut c_void, size: usize) -> hipError_t {
        // SAFETY: the caller's contract (above).
        call("hipMemcpyDtoD", |rt| unsafe { copy(rt, dst, src, size, DEVICE_TO_DEVICE, std::ptr::null_mut()) })
    }

    /// `hipMemcpyDtoDAsync(dst, src, size, stream)`.
    ///
    /// # Safety
    /// Both sides are device memory; a side outside it is `size` bytes of the caller's host memory, live until the copy has run.
    unsafe fn hipMemcpyDtoDAsync(dst: *mut c_void, src: *mut c_void, size: usize, stream: handle) -> hipError_t {
        // SAFETY: the caller's contract (above).
        call_with("hipMemcpyDtoDAsync", || format!("{dst:?}, {src:?}, {size}, {stream:?}"), |rt| unsafe { copy(rt, dst, src, size, DEVICE_TO_DEVICE, stream) })
    }
}
