//! `hipModuleLoadData` is handed a pointer without a length: the image's
//! extent is read from its own headers, as HIP does — an ELF code object
//! ends at its furthest header table, segment or section; a clang offload
//! bundle at its furthest entry, and the entry for the device is chosen;
//! a compressed bundle (`CCOB`) at its header's total size
//! (`super::compressed_image`).

use std::ffi::c_void;
use std::sync::Arc;

use amdgpu_sim::elf::MAX_CODE_OBJECT_BYTES;
use amdgpu_sim::isa::Target;
use amdgpu_sim::{HipCode, Sim};

use super::bundle::{BUNDLE_MAGIC, MAX_BUNDLE_ENTRIES};
use crate::core::ptr;

const ELF_MAGIC: &[u8] = b"\x7fELF";
/// `SHT_NOBITS`: a section without file bytes.
const SHT_NOBITS: u32 = 8;
/// Longest bundle entry ID read.
const MAX_BUNDLE_ID: u64 = 4096;

/// `len` bytes of the image at `base + offset`.
///
/// # Safety
/// `base` is an image (`hipModuleLoadData`'s contract) and
/// `offset + len` lies within the extent its headers describe.
unsafe fn read(base: *const c_void, offset: u64, len: u64) -> Result<Vec<u8>, HipCode> {
    let limit = MAX_CODE_OBJECT_BYTES as u64;
    if offset.checked_add(len).is_none_or(|end| end > limit) {
        return Err(HipCode::INVALID_IMAGE);
    }
    // SAFETY: inside the image, the caller's promise.
    unsafe {
        ptr::read_bytes(
            base.cast::<u8>().wrapping_add(offset as usize).cast(),
            len as usize,
        )
    }
    .ok_or(HipCode::INVALID_VALUE)
}

/// [`read`] into shared storage (the image the module keeps).
///
/// # Safety
/// As [`read`].
unsafe fn read_shared(base: *const c_void, offset: u64, len: u64) -> Result<Arc<[u8]>, HipCode> {
    let limit = MAX_CODE_OBJECT_BYTES as u64;
    if offset.checked_add(len).is_none_or(|end| end > limit) {
        return Err(HipCode::INVALID_IMAGE);
    }
    // SAFETY: inside the image, the caller's promise.
    unsafe {
        ptr::read_shared(
            base.cast::<u8>().wrapping_add(offset as usize).cast(),
            len as usize,
        )
    }
    .ok_or(HipCode::INVALID_VALUE)
}

fn u16_at(b: &[u8], at: usize) -> u64 {
    b.get(at..at + 2)
        .and_then(|s| s.try_into().ok())
        .map_or(0, |a| u64::from(u16::from_le_bytes(a)))
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    b.get(at..at + 4)
        .and_then(|s| s.try_into().ok())
        .map_or(0, u32::from_le_bytes)
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    b.get(at..at + 8)
        .and_then(|s| s.try_into().ok())
        .map_or(0, u64::from_le_bytes)
}

fn table_end(offset: u64, count: u64, entry: u64) -> Result<u64, HipCode> {
    count
        .checked_mul(entry)
        .and_then(|n| n.checked_add(offset))
        .ok_or(HipCode::INVALID_IMAGE)
}

/// The bytes of the ELF image at `base`.
///
/// # Safety
/// `base` is a code object or offload bundle whose headers describe its
/// own extent (`hipModuleLoadData`'s contract).
unsafe fn read_elf(base: *const c_void) -> Result<Arc<[u8]>, HipCode> {
    // SAFETY: within the extent the image's headers give, the caller's promise.
    let header = unsafe { read(base, 0, 64) }?;
    let (phoff, shoff) = (u64_at(&header, 32), u64_at(&header, 40));
    let (phentsize, phnum) = (u16_at(&header, 54), u16_at(&header, 56));
    let (shentsize, shnum) = (u16_at(&header, 58), u16_at(&header, 60));
    let mut end = 64u64;
    if phnum > 0 {
        let ph_end = table_end(phoff, phnum, phentsize)?;
        // SAFETY: within the extent the image's headers give, the caller's promise.
        let table = unsafe { read(base, phoff, ph_end - phoff) }?;
        for i in 0..phnum as usize {
            let at = i * phentsize as usize;
            let seg_end = u64_at(&table, at + 8)
                .checked_add(u64_at(&table, at + 32))
                .ok_or(HipCode::INVALID_IMAGE)?;
            end = end.max(ph_end).max(seg_end);
        }
    }
    if shnum > 0 {
        let sh_end = table_end(shoff, shnum, shentsize)?;
        // SAFETY: within the extent the image's headers give, the caller's promise.
        let table = unsafe { read(base, shoff, sh_end - shoff) }?;
        end = end.max(sh_end);
        for i in 0..shnum as usize {
            let at = i * shentsize as usize;
            if u32_at(&table, at + 4) == SHT_NOBITS {
                continue;
            }
            let sec_end = u64_at(&table, at + 24)
                .checked_add(u64_at(&table, at + 32))
                .ok_or(HipCode::INVALID_IMAGE)?;
            end = end.max(sec_end);
        }
    }
    // SAFETY: within the extent the image's headers give, the caller's promise.
    unsafe { read_shared(base, 0, end) }
}

/// The code object in the bundle at `base` that runs on `ordinal`.
///
/// # Safety
/// `base` is a code object or offload bundle whose headers describe its
/// own extent (`hipModuleLoadData`'s contract).
unsafe fn read_bundle(sim: &Sim, ordinal: i32, base: *const c_void) -> Result<Arc<[u8]>, HipCode> {
    // SAFETY: within the extent the image's headers give, the caller's promise.
    let header = unsafe { read(base, 0, 32) }?;
    let count = u64_at(&header, 24);
    if count > MAX_BUNDLE_ENTRIES {
        return Err(HipCode::INVALID_IMAGE);
    }
    let isas: Vec<Target> = sim.hip_device_isas(ordinal)?;
    let mut at = 32u64;
    for _ in 0..count {
        // SAFETY: within the extent the image's headers give, the caller's promise.
        let entry = unsafe { read(base, at, 24) }?;
        let (offset, size, id_len) = (u64_at(&entry, 0), u64_at(&entry, 8), u64_at(&entry, 16));
        if id_len > MAX_BUNDLE_ID {
            return Err(HipCode::INVALID_IMAGE);
        }
        // SAFETY: within the extent the image's headers give, the caller's promise.
        let id = unsafe { read(base, at + 24, id_len) }?;
        at = at + 24 + id_len;
        let id = String::from_utf8_lossy(&id);
        // `hipv4-amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-` (or `hip-…`).
        let Some((kind, target)) = id.split_once('-') else {
            continue;
        };
        if !matches!(kind, "hip" | "hipv4") {
            continue;
        }
        let Some(target) = Target::parse(target) else {
            continue;
        };
        if isas.iter().any(|isa| target.runs_on(isa)) {
            // SAFETY: within the extent the image's headers give, the caller's promise.
            return unsafe { read_shared(base, offset, size) };
        }
    }
    Err(HipCode::NO_BINARY_FOR_GPU)
}

/// The code object `hipModuleLoadData` was handed, for device `ordinal`.
///
/// # Safety
/// `base` is a code object or offload bundle whose headers describe its
/// own extent (`hipModuleLoadData`'s contract).
pub(crate) unsafe fn read_image(
    sim: &Sim,
    ordinal: i32,
    base: *const c_void,
) -> Result<Arc<[u8]>, HipCode> {
    // SAFETY: within the extent the image's headers give, the caller's promise.
    let magic = unsafe { read(base, 0, 4) }?;
    if magic == ELF_MAGIC {
        // SAFETY: within the extent the image's headers give, the caller's promise.
        return unsafe { read_elf(base) };
    }
    if magic == amdgpu_sim::compressed_bundle::MAGIC {
        // SAFETY: within the extent the image's headers give, the caller's promise.
        let bundle = unsafe { super::compressed_image::read_compressed(base) }?;
        // SAFETY: every range the bundle's reader reads lies in `bundle`
        // (checked when it was decompressed), which lives across the call.
        return unsafe { read_image(sim, ordinal, bundle.as_ptr().cast::<c_void>()) };
    }
    // SAFETY: within the extent the image's headers give, the caller's promise.
    let magic = unsafe { read(base, 0, BUNDLE_MAGIC.len() as u64) }?;
    if magic == BUNDLE_MAGIC {
        // SAFETY: within the extent the image's headers give, the caller's promise.
        return unsafe { read_bundle(sim, ordinal, base) };
    }
    Err(HipCode::INVALID_IMAGE)
}
