//! Names `hip_runtime_api.h` keeps for calls served elsewhere: the older
//! and driver-API spellings of pinned host memory (`hipMallocHost`,
//! `hipMemAllocHost`, `hipHostAlloc`, `hipFreeHost`), the synchronous
//! typed fills (`hipMemsetD8`/`D16`/`D32`), a copy that waits on its
//! stream (`hipMemcpyWithStream`), and small queries answered from what
//! other calls already know (`hipDeviceComputeCapability`,
//! `hipCtxGetDevice`, `hipCtxSynchronize`, `hipStreamGetFlags`,
//! `hipStreamGetDevice`). Each does what the call it names does, and the
//! node counts it under that call's name.

use std::ffi::{c_int, c_uint, c_void};

use amdgpu_sim::HipCode;

use super::context::current_device;
use super::memory::{
    hipHostFree, hipHostMalloc, hipMemcpyAsync, hipMemsetD8Async, hipMemsetD16Async,
    hipMemsetD32Async,
};
use super::stream::{hipDeviceSynchronize, hipStreamSynchronize};
use crate::abi::*;
use crate::core::exports::c_exports;
use crate::core::hip_call::{call, handle, modelled, of_handle, put};

c_exports! {
    /// `hipMallocHost` (deprecated): `hipHostMalloc` with no flags.
    ///
    /// # Safety
    /// `ptr` is NULL or points at a writable `void*`.
    unsafe fn hipMallocHost(ptr: *mut *mut c_void, size: usize) -> hipError_t {
        // SAFETY: the caller's contract (above), hipHostMalloc's.
        unsafe { hipHostMalloc(ptr, size, 0) }
    }

    /// `hipMemAllocHost` (the driver API's name): `hipHostMalloc` with no flags.
    ///
    /// # Safety
    /// `ptr` is NULL or points at a writable `void*`.
    unsafe fn hipMemAllocHost(ptr: *mut *mut c_void, size: usize) -> hipError_t {
        // SAFETY: the caller's contract (above), hipHostMalloc's.
        unsafe { hipHostMalloc(ptr, size, 0) }
    }

    /// `hipHostAlloc` (deprecated): `hipHostMalloc`.
    ///
    /// # Safety
    /// `ptr` is NULL or points at a writable `void*`.
    unsafe fn hipHostAlloc(ptr: *mut *mut c_void, size: usize, flags: c_uint) -> hipError_t {
        // SAFETY: the caller's contract (above), hipHostMalloc's.
        unsafe { hipHostMalloc(ptr, size, flags) }
    }

    /// `hipFreeHost` (deprecated): `hipHostFree`.
    fn hipFreeHost(ptr: *mut c_void) -> hipError_t {
        hipHostFree(ptr)
    }

    /// `hipMemsetD8`: `count` bytes, done when it returns (the null stream).
    ///
    /// # Safety
    /// `dst`, outside device memory, is `count` bytes of host memory HIP allocated or registered.
    unsafe fn hipMemsetD8(dst: *mut c_void, value: u8, count: usize) -> hipError_t {
        // SAFETY: the caller's contract (above); the null stream runs the fill now.
        unsafe { hipMemsetD8Async(dst, value, count, std::ptr::null_mut()) }
    }

    /// `hipMemsetD16`: `count` 16-bit values, done when it returns.
    ///
    /// # Safety
    /// `dst`, outside device memory, is `count` 16-bit values of host memory HIP allocated or registered.
    unsafe fn hipMemsetD16(dst: *mut c_void, value: u16, count: usize) -> hipError_t {
        // SAFETY: the caller's contract (above); the null stream runs the fill now.
        unsafe { hipMemsetD16Async(dst, value, count, std::ptr::null_mut()) }
    }

    /// `hipMemsetD32`: `count` 32-bit values, done when it returns.
    ///
    /// # Safety
    /// `dst`, outside device memory, is `count` 32-bit values of host memory HIP allocated or registered.
    unsafe fn hipMemsetD32(dst: *mut c_void, value: c_int, count: usize) -> hipError_t {
        // SAFETY: the caller's contract (above); the null stream runs the fill now.
        unsafe { hipMemsetD32Async(dst, value, count, std::ptr::null_mut()) }
    }

    /// `hipMemcpyWithStream`: `hipMemcpyAsync` on `stream`, then a wait
    /// for the stream.
    ///
    /// # Safety
    /// A side outside device memory is `size` bytes of the caller's host memory (readable `src`, writable `dst`).
    unsafe fn hipMemcpyWithStream(dst: *mut c_void, src: *const c_void, size: usize, kind: c_int,
        stream: handle) -> hipError_t {
        // SAFETY: the caller's contract (above); the host memory outlives the wait below.
        let copied = unsafe { hipMemcpyAsync(dst, src, size, kind, stream) };
        if copied != hipSuccess {
            return copied;
        }
        hipStreamSynchronize(stream)
    }

    /// `hipDeviceComputeCapability(&major, &minor, device)`: the properties' `major`, `minor`.
    ///
    /// # Safety
    /// `major` and `minor` are NULL or point at writable `int`s.
    unsafe fn hipDeviceComputeCapability(major: *mut c_int, minor: *mut c_int, device: c_int) -> hipError_t {
        // Counted as the properties query it is, as `hipDeviceTotalMem` is.
        modelled(hipErrorInvalidDevice, |rt| {
            if major.is_null() || minor.is_null() {
                return Err(HipCode::INVALID_VALUE);
            }
            let p = rt.sim.hip_get_device_properties(device)?;
            // SAFETY: the caller's contract (above).
            unsafe { put(major, p.major) }?;
            // SAFETY: the caller's contract (above).
            unsafe { put(minor, p.minor) }
        })
    }

    /// `hipCtxGetDevice`: the device of this thread's current context (or
    /// of `hipSetDevice`'s choice).
    ///
    /// # Safety
    /// `device` is NULL or points at a writable `int`.
    unsafe fn hipCtxGetDevice(device: *mut c_int) -> hipError_t {
        call("hipCtxGetDevice", |rt| {
            // SAFETY: the caller's contract (above).
            unsafe { put(device, current_device(&rt.sim)) }
        })
    }

    /// `hipCtxSynchronize`: `hipDeviceSynchronize` of the current context's device.
    fn hipCtxSynchronize() -> hipError_t {
        hipDeviceSynchronize()
    }

    /// `hipStreamGetFlags`: the flags the stream was created with; the
    /// null stream is `hipErrorInvalidValue`, as clr answers.
    ///
    /// # Safety
    /// `flags` is NULL or points at a writable `unsigned int`.
    unsafe fn hipStreamGetFlags(stream: handle, flags: *mut c_uint) -> hipError_t {
        call("hipStreamGetFlags", |rt| {
            let value = match of_handle(stream) {
                0 => return Err(HipCode::INVALID_VALUE),
                s => rt.streams().stream(s)?.flags,
            };
            // SAFETY: the caller's contract (above).
            unsafe { put(flags, value) }
        })
    }

    /// `hipStreamGetDevice`: the device the stream belongs to (the null
    /// stream: the current device).
    ///
    /// # Safety
    /// `device` is NULL or points at a writable `int`.
    unsafe fn hipStreamGetDevice(stream: handle, device: *mut c_int) -> hipError_t {
        call("hipStreamGetDevice", |rt| {
            let ordinal = super::stream::stream_device(rt, stream)?;
            // SAFETY: the caller's contract (above).
            unsafe { put(device, ordinal) }
        })
    }
}
