//! Variables by host address (`__device__`, `__constant__`, `__managed__`;
//! `HIP_SYMBOL(x)` is `&x`): their device address and size, and copies to
//! and from them, through `hipMemcpy`'s copies. A variable is looked up on
//! the current device (the stream's for the asynchronous copies), its fat
//! binary loaded there at this first use; a managed variable is its
//! managed memory on every device. A copy past the variable's end is
//! `hipErrorInvalidValue`, an address never registered
//! `hipErrorInvalidSymbol`, as in ROCm.

use std::ffi::{c_int, c_void};

use amdgpu_sim::HipCode;

use super::context::current_device;
use super::memory::copy;
use super::registration::symbol_on;
use super::stream::stream_device;
use crate::abi::*;
use crate::core::exports::c_exports;
use crate::core::hip_call::{Call, handle, modelled, put};
use crate::core::runtime::Runtime;

/// The device address of bytes `offset..offset + len` of the variable at
/// `symbol` on `ordinal`.
fn symbol_range(
    rt: &Runtime,
    symbol: *const c_void,
    offset: usize,
    len: usize,
    ordinal: i32,
) -> Result<*mut c_void, HipCode> {
    let (address, size) = symbol_on(rt, symbol as usize, ordinal)?;
    if offset.checked_add(len).is_none_or(|end| end > size) {
        return Err(HipCode::INVALID_VALUE);
    }
    Ok((address as usize + offset) as *mut c_void)
}

/// A copy into the variable at `symbol`.
///
/// # Safety
/// `src` is `len` readable bytes of the caller's (live until the copy
/// has run in stream order), or device memory.
unsafe fn to_symbol(
    rt: &Runtime,
    symbol: *const c_void,
    src: *const c_void,
    len: usize,
    offset: usize,
    kind: c_int,
    stream: handle,
) -> Call {
    let ordinal = stream_device(rt, stream)?;
    let dst = symbol_range(rt, symbol, offset, len, ordinal)?;
    // SAFETY: the caller's promise for `src`; `dst` lies in the variable.
    unsafe { copy(rt, dst, src, len, kind, stream) }
}

/// A copy out of the variable at `symbol`.
///
/// # Safety
/// `dst` is `len` writable bytes of the caller's (live until the copy
/// has run in stream order), or device memory.
unsafe fn from_symbol(
    rt: &Runtime,
    dst: *mut c_void,
    symbol: *const c_void,
    len: usize,
    offset: usize,
    kind: c_int,
    stream: handle,
) -> Call {
    let ordinal = stream_device(rt, stream)?;
    let src = symbol_range(rt, symbol, offset, len, ordinal)?;
    // SAFETY: the caller's promise for `dst`; `src` lies in the variable.
    unsafe { copy(rt, dst, src, len, kind, stream) }
}

c_exports! {
    /// `hipMemcpyToSymbol`: synchronous, on the null stream.
    ///
    /// # Safety
    /// `src` is `size_bytes` readable bytes of the caller's, or device memory.
    unsafe fn hipMemcpyToSymbol(symbol: *const c_void, src: *const c_void, size_bytes: usize,
        offset: usize, kind: c_int) -> hipError_t {
        modelled(hipErrorInvalidDevice, |rt| rt.sim.hip_external("hipMemcpyToSymbol", || {
            // SAFETY: the caller's contract (above).
            unsafe { to_symbol(rt, symbol, src, size_bytes, offset, kind, std::ptr::null_mut()) }
        }))
    }

    /// `hipMemcpyToSymbolAsync`.
    ///
    /// # Safety
    /// `src` is `size_bytes` readable bytes of the caller's (live until the copy has run), or device memory.
    unsafe fn hipMemcpyToSymbolAsync(symbol: *const c_void, src: *const c_void, size_bytes: usize,
        offset: usize, kind: c_int, stream: handle) -> hipError_t {
        modelled(hipErrorInvalidDevice, |rt| rt.sim.hip_external("hipMemcpyToSymbolAsync", || {
            // SAFETY: the caller's contract (above).
            unsafe { to_symbol(rt, symbol, src, size_bytes, offset, kind, stream) }
        }))
    }

    /// `hipMemcpyFromSymbol`: synchronous, on the null stream.
    ///
    /// # Safety
    /// `dst` is `size_bytes` writable bytes of the caller's, or device memory.
    unsafe fn hipMemcpyFromSymbol(dst: *mut c_void, symbol: *const c_void, size_bytes: usize,
        offset: usize, kind: c_int) -> hipError_t {
        modelled(hipErrorInvalidDevice, |rt| rt.sim.hip_external("hipMemcpyFromSymbol", || {
            // SAFETY: the caller's contract (above).
            unsafe { from_symbol(rt, dst, symbol, size_bytes, offset, kind, std::ptr::null_mut()) }
        }))
    }

    /// `hipMemcpyFromSymbolAsync`.
    ///
    /// # Safety
    /// `dst` is `size_bytes` writable bytes of the caller's (live until the copy has run), or device memory.
    unsafe fn hipMemcpyFromSymbolAsync(dst: *mut c_void, symbol: *const c_void, size_bytes: usize,
        offset: usize, kind: c_int, stream: handle) -> hipError_t {
        modelled(hipErrorInvalidDevice, |rt| rt.sim.hip_external("hipMemcpyFromSymbolAsync", || {
            // SAFETY: the caller's contract (above).
            unsafe { from_symbol(rt, dst, symbol, size_bytes, offset, kind, stream) }
        }))
    }

    /// `hipGetSymbolAddress`: the variable's address on the current device.
    ///
    /// # Safety
    /// `dev_ptr` is NULL or points at a writable `void*`.
    unsafe fn hipGetSymbolAddress(dev_ptr: *mut *mut c_void, symbol: *const c_void) -> hipError_t {
        modelled(hipErrorInvalidDevice, |rt| rt.sim.hip_external("hipGetSymbolAddress", || {
            let (address, _) = symbol_on(rt, symbol as usize, current_device(&rt.sim))?;
            // SAFETY: the caller's contract (above).
            unsafe { put(dev_ptr, address as usize as *mut c_void) }
        }))
    }

    /// `hipGetSymbolSize`: the variable's size.
    ///
    /// # Safety
    /// `size` is NULL or points at a writable `size_t`.
    unsafe fn hipGetSymbolSize(size: *mut usize, symbol: *const c_void) -> hipError_t {
        modelled(hipErrorInvalidDevice, |rt| rt.sim.hip_external("hipGetSymbolSize", || {
            let (_, bytes) = symbol_on(rt, symbol as usize, current_device(&rt.sim))?;
            // SAFETY: the caller's contract (above).
            unsafe { put(size, bytes) }
        }))
    }
}
