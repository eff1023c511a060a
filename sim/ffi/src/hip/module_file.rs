//! `hipModuleLoad`: a module from a code object or offload bundle in a
//! file, loaded on the current device as `hipModuleLoadData` loads one in
//! memory.
//!
//! `hipModuleLoadData`'s reader (`super::image`) trusts the extent an
//! image's headers give, as HIP does for a pointer; a file has a length,
//! so an offload bundle's header and entries are checked against it first
//! and a file whose headers reach past its end is `hipErrorInvalidImage`.

use std::ffi::{c_char, c_void};
use std::io::Read;
use std::sync::Arc;

use amdgpu_sim::HipCode;
use amdgpu_sim::elf::MAX_CODE_OBJECT_BYTES;

use amdgpu_sim::compressed_bundle;

use super::bundle::{BUNDLE_MAGIC, bundle_within};
use super::compressed_image;
use super::context::current_device;
use super::image::read_image;
use crate::abi::*;
use crate::core::exports::c_exports;
use crate::core::hip_call::{as_handle, handle, modelled, put};
use crate::core::ptr;

/// The file at `path`, at most [`MAX_CODE_OBJECT_BYTES`] long.
fn read_file(path: &str) -> Result<Vec<u8>, HipCode> {
    let file = std::fs::File::open(path).map_err(|_| HipCode(hipErrorFileNotFound))?;
    let mut bytes = Vec::new();
    file.take(MAX_CODE_OBJECT_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|_| HipCode(hipErrorFileNotFound))?;
    if bytes.len() > MAX_CODE_OBJECT_BYTES {
        return Err(HipCode::INVALID_IMAGE);
    }
    Ok(bytes)
}

c_exports! {
    /// `hipModuleLoad(&module, fname)`: a missing or unreadable file is
    /// `hipErrorFileNotFound`, as in ROCm.
    ///
    /// # Safety
    /// `module` is NULL or points at a writable module handle; `fname` is NULL or NUL-terminated.
    unsafe fn hipModuleLoad(module: *mut handle, fname: *const c_char) -> hipError_t {
        modelled(hipErrorInvalidDevice, |rt| {
            // SAFETY: the caller's contract (above).
            let path = unsafe { ptr::read_c_str(fname) }.ok_or(HipCode::INVALID_VALUE)?;
            if module.is_null() {
                return Err(HipCode::INVALID_VALUE);
            }
            let bytes = read_file(&path)?;
            let ordinal = current_device(&rt.sim);
            let image: Arc<[u8]> = if compressed_bundle::is_compressed_bundle(&bytes) {
                // A file has a length: every version is read.
                let bundle = compressed_image::decompress(&bytes)?;
                // SAFETY: every range the bundle's reader reads lies in
                // `bundle` (checked by `decompress`), which lives across
                // the call.
                unsafe { read_image(&rt.sim, ordinal, bundle.as_ptr().cast::<c_void>()) }?
            } else if bytes.starts_with(BUNDLE_MAGIC) {
                if !bundle_within(&bytes) {
                    return Err(HipCode::INVALID_IMAGE);
                }
                // SAFETY: every range the bundle's reader reads lies in
                // `bytes` (checked above), which lives across the call.
                unsafe { read_image(&rt.sim, ordinal, bytes.as_ptr().cast::<c_void>()) }?
            } else {
                // The simulator reads an ELF within its bytes.
                Arc::from(bytes)
            };
            let m = rt.sim.hip_module_load_shared("hipModuleLoad", ordinal, image)?;
            // SAFETY: the caller's contract (above).
            unsafe { put(module, as_handle(m)) }
        })
    }
}
