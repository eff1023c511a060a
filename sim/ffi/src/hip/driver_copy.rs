//! The copies whose direction is in the name (`hipMemcpyHtoD`,
//! `hipMemcpyDtoH`, `hipMemcpyDtoD` and their `Async` forms;
//! `hipMemcpyHtoDAsync` is with the other copies in `super::memory`), and
//! peer copies (`hipMemcpyPeer`, `hipMemcpyPeerAsync`: device to device,
//! the devices checked first, as clr's hip_peer.cpp does):
//! `hipMemcpy`/`hipMemcpyAsync` with the kind the name says, so pageable
//! host memory is treated as those treat it.

use std::ffi::{c_int, c_void};

use amdgpu_sim::HipCode;

use super::memory::copy;
use crate::abi::*;
use crate::core::exports::c_exports;
use crate::core::hip_call::{call, call_with, handle};
use crate::core::runtime::Runtime;

/// `hipErrorInvalidDevice` unless both ordinals are devices of the node.
fn check_devices(rt: &Runtime, devices: [c_int; 2]) -> Result<(), HipCode> {
    for ordinal in devices {
        rt.sim
            .hip_device_isas(ordinal)
            .map_err(|_| HipCode::INVALID_DEVICE)?;
    }
    Ok(())
}

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

    /// `hipMemcpyPeer(dst, dstDevice, src, srcDevice, size)`: synchronous,
    /// on the null stream.
    ///
    /// # Safety
    /// Both sides are device memory; a side outside it is `size` bytes of the caller's host memory.
    unsafe fn hipMemcpyPeer(dst: *mut c_void, dst_device: c_int, src: *const c_void, src_device: c_int,
        size: usize) -> hipError_t {
        call("hipMemcpyPeer", |rt| {
            check_devices(rt, [dst_device, src_device])?;
            // SAFETY: the caller's contract (above).
            unsafe { copy(rt, dst, src, size, DEVICE_TO_DEVICE, std::ptr::null_mut()) }
        })
    }

    /// `hipMemcpyPeerAsync(dst, dstDevice, src, srcDevice, size, stream)`.
    ///
    /// # Safety
    /// Both sides are device memory; a side outside it is `size` bytes of the caller's host memory, live until the copy has run.
    unsafe fn hipMemcpyPeerAsync(dst: *mut c_void, dst_device: c_int, src: *const c_void,
        src_device: c_int, size: usize, stream: handle) -> hipError_t {
        call_with("hipMemcpyPeerAsync", || format!("{dst:?}, {dst_device}, {src:?}, {src_device}, {size}, {stream:?}"), |rt| {
            check_devices(rt, [dst_device, src_device])?;
            // SAFETY: the caller's contract (above).
            unsafe { copy(rt, dst, src, size, DEVICE_TO_DEVICE, stream) }
        })
    }
}
