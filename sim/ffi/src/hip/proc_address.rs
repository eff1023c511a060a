//! `hipGetProcAddress`: a HIP function of this library by name, as ROCm 6.1+
//! answers it (ROCm/clr, hipamd/src/hip_device.cpp). Triton's HIP launcher
//! resolves every function it calls this way.
//!
//! The name is looked up among the library's own dynamic exports (`dlsym`
//! on the handle of the object this function lives in, found with
//! `dladdr`), so every HIP export is found without a table to keep.
//! From HIP version 600 on, the two names whose struct changed in ROCm 6
//! mean their R0600 functions, as clr maps them. Only HIP's names
//! (`hip…`, `__hip…`) are served: the HSA functions this library also
//! exports are `libhsa-runtime64`'s, which ROCm's `libamdhip64` does not
//! export.

use std::ffi::{c_char, c_int, c_void};

use amdgpu_sim::HipCode;

use crate::abi::*;
use crate::core::exports::c_exports;
use crate::core::hip_call::{call_with, put};
use crate::core::ptr;

/// `hipDriverProcAddressQueryResult`.
const PROC_ADDRESS_SUCCESS: c_int = 0;
const PROC_ADDRESS_SYMBOL_NOT_FOUND: c_int = 1;
/// The HIP version from which `hipGetDeviceProperties` and
/// `hipChooseDevice` mean their R0600 functions (clr: `hipVersion >= 600`).
const ROCM6_HIP_VERSION: c_int = 600;
/// Longest symbol name looked up (a longer one is not found).
const MAX_SYMBOL_NAME: usize = 256;

/// The functions whose struct changed in ROCm 6, without their `hip`
/// prefix: from [`ROCM6_HIP_VERSION`] on, `hip` + name means `hip` + name +
/// [`ROCM6_SUFFIX`] (`hipGetDeviceProperties` → `hipGetDevicePropertiesR0600`).
const ROCM6_RENAMED: &[&str] = &["GetDeviceProperties", "ChooseDevice"];
/// The suffix of ROCm 6's form of a renamed function.
const ROCM6_SUFFIX: &str = "R0600";

/// The address of this library's export `name`, if it has one: looked up
/// through a `dlopen` handle of the object this code lives in (the shared
/// library, or a program it is linked into), taken for the lookup alone.
fn own_symbol(name: &str) -> Option<usize> {
    let c_name = std::ffi::CString::new(name).ok()?;
    let mut info = std::mem::MaybeUninit::<libc::Dl_info>::zeroed();
    let me = hipGetProcAddress as *const c_void;
    // SAFETY: `info` is writable storage for one `Dl_info`; `me` is an
    // address of this object's code.
    if unsafe { libc::dladdr(me, info.as_mut_ptr()) } == 0 {
        return None;
    }
    // SAFETY: `dladdr` succeeded, so it filled `info`.
    let path = unsafe { info.assume_init() }.dli_fname;
    if path.is_null() {
        return None;
    }
    // SAFETY: `path` is the loader's NUL-terminated path of a loaded
    // object; RTLD_NOLOAD only takes another reference to it.
    let handle = unsafe { libc::dlopen(path, libc::RTLD_LAZY | libc::RTLD_NOLOAD) };
    if handle.is_null() {
        return None;
    }
    // SAFETY: a live handle and a NUL-terminated name.
    let address = unsafe { libc::dlsym(handle, c_name.as_ptr()) };
    // SAFETY: the reference taken above, given back (the library is linked
    // `-z nodelete`, so it stays mapped whatever the count).
    unsafe { libc::dlclose(handle) };
    (!address.is_null()).then_some(address as usize)
}

/// What `symbol` means to a client of HIP version `hip_version`.
fn resolve_name(symbol: &str, hip_version: c_int) -> String {
    let renamed = symbol
        .strip_prefix("hip")
        .is_some_and(|rest| ROCM6_RENAMED.contains(&rest));
    if hip_version >= ROCM6_HIP_VERSION && renamed {
        format!("{symbol}{ROCM6_SUFFIX}")
    } else {
        symbol.to_owned()
    }
}

c_exports! {
    /// `hipGetProcAddress(symbol, &pfn, hipVersion, flags, &symbolStatus)`:
    /// an unknown name is `hipErrorInvalidValue` with
    /// `HIP_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND` (`symbolStatus` may be
    /// NULL); `flags` are not read, as in ROCm.
    ///
    /// # Safety
    /// `symbol` is NULL or NUL-terminated; `pfn` is NULL or points at a
    /// writable `void*`; `symbol_status` is NULL or points at a writable
    /// `hipDriverProcAddressQueryResult`.
    unsafe fn hipGetProcAddress(symbol: *const c_char, pfn: *mut *mut c_void, hip_version: c_int,
        flags: u64, symbol_status: *mut c_int) -> hipError_t {
        let _ = flags;
        call_with("hipGetProcAddress", || format!("{symbol:?}, {hip_version}"), |_| {
            if symbol.is_null() || pfn.is_null() {
                return Err(HipCode::INVALID_VALUE);
            }
            // SAFETY: the caller's contract (above).
            let name = unsafe { ptr::read_c_str(symbol) }.ok_or(HipCode::INVALID_VALUE)?;
            if name.is_empty() {
                return Err(HipCode::INVALID_VALUE);
            }
            let name = resolve_name(&name, hip_version);
            let hip_name = (name.starts_with("hip") || name.starts_with("__hip"))
                && name.len() <= MAX_SYMBOL_NAME;
            let address = if hip_name { own_symbol(&name) } else { None };
            let status = if address.is_some() { PROC_ADDRESS_SUCCESS } else { PROC_ADDRESS_SYMBOL_NOT_FOUND };
            // SAFETY: the caller's contract (above).
            unsafe { put(pfn, address.unwrap_or(0) as *mut c_void) }?;
            if !symbol_status.is_null() {
                // SAFETY: the caller's contract (above).
                unsafe { put(symbol_status, status) }?;
            }
            address.map(|_| ()).ok_or(HipCode::INVALID_VALUE)
        })
    }
}
