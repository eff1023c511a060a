//! Compressed offload bundles (`CCOB`, `amdgpu_sim::compressed_bundle`)
//! wherever HIP takes a bundle: a registered fat binary, a
//! `hipModuleLoadData` image, a `hipModuleLoad` file. The bundle is
//! decompressed (its header's sizes checked against what it really holds,
//! the output bounded), every entry of it checked to lie inside it, and
//! the device's code object chosen from it as from an uncompressed one.
//!
//! From a pointer (no length), the extent is the header's total size
//! (versions 2 and 3): a version 1 bundle, whose data runs to the end of
//! what holds it, can only come from a file, and from a pointer is
//! `hipErrorInvalidImage`, said on stderr.

use std::ffi::c_void;

use amdgpu_sim::HipCode;
use amdgpu_sim::compressed_bundle::{self, Header, MAX_HEADER_BYTES};
use amdgpu_sim::elf::MAX_CODE_OBJECT_BYTES;

use super::bundle::{BUNDLE_MAGIC, bundle_within};
use crate::core::ptr;

/// The offload bundle the compressed bundle `bytes` holds, every header
/// and entry of it inside it.
pub(crate) fn decompress(bytes: &[u8]) -> Result<Vec<u8>, HipCode> {
    let bundle = compressed_bundle::decompress(bytes).map_err(|e| {
        eprintln!("amdgpu-sim: {e}");
        HipCode::INVALID_IMAGE
    })?;
    if !bundle.starts_with(BUNDLE_MAGIC) || !bundle_within(&bundle) {
        eprintln!(
            "amdgpu-sim: a compressed offload bundle holds no well-formed clang offload bundle"
        );
        return Err(HipCode::INVALID_IMAGE);
    }
    Ok(bundle)
}

/// The offload bundle the compressed bundle at `base` holds.
///
/// # Safety
/// `base` is a compressed bundle whose header's total size is its extent
/// (`hipModuleLoadData`'s and the registration's contract).
pub(crate) unsafe fn read_compressed(base: *const c_void) -> Result<Vec<u8>, HipCode> {
    // The fixed part of every version's header lies in the bundle; the
    // rest is read only once the version says it is there.
    // SAFETY: the first 8 bytes (magic, version, method) of the bundle.
    let start = unsafe { ptr::read_bytes(base, 8) }.ok_or(HipCode::INVALID_VALUE)?;
    let header_bytes = match start.get(4..6).map(|v| u16::from_le_bytes([v[0], v[1]])) {
        Some(2) => 24,
        Some(3) => MAX_HEADER_BYTES,
        Some(version) => {
            eprintln!(
                "amdgpu-sim: a compressed offload bundle of version {version} from a pointer: \
                 only versions 2 and 3 say their extent"
            );
            return Err(HipCode::INVALID_IMAGE);
        }
        None => return Err(HipCode::INVALID_IMAGE),
    };
    // SAFETY: the header of the version just read lies in the bundle.
    let head = unsafe { ptr::read_bytes(base, header_bytes) }.ok_or(HipCode::INVALID_VALUE)?;
    let header = Header::parse(&head).map_err(|e| {
        eprintln!("amdgpu-sim: {e}");
        HipCode::INVALID_IMAGE
    })?;
    let total = header.total_bytes.unwrap_or(0);
    if total > MAX_CODE_OBJECT_BYTES as u64 {
        eprintln!(
            "amdgpu-sim: a compressed offload bundle of {total} bytes (at most {MAX_CODE_OBJECT_BYTES})"
        );
        return Err(HipCode::INVALID_IMAGE);
    }
    // SAFETY: the header's total size is the bundle's extent, the caller's promise.
    let bytes = unsafe { ptr::read_bytes(base, total as usize) }.ok_or(HipCode::INVALID_VALUE)?;
    decompress(&bytes)
}
