//! Recognises clang offload bundles (`__CLANG_OFFLOAD_BUNDLE__`), which is
//! what IREE's compiler puts into a module with `--iree-rocm-use-spirv`
//! (SPIR-V for the HIP runtime to finalise) instead of an AMDGPU ELF. Only the
//! entry IDs are read, to say clearly what the image is.
//!
//! Layout (little-endian): the 24-byte magic, a `u64` entry count, then per
//! entry a `u64` offset, a `u64` size, a `u64` ID length and the ID bytes.
//! A compressed bundle (`CCOB`, `clang --offload-compress`, ROCm 6's
//! libraries) is decompressed first (`amdgpu_sim::compressed_bundle`: its
//! header's sizes checked, its output bounded), then read the same way.

use amdgpu_sim::compressed_bundle;

use crate::status;
use crate::status::{Result, Status};

/// The bundle magic.
pub const OFFLOAD_BUNDLE_MAGIC: &[u8; 24] = b"__CLANG_OFFLOAD_BUNDLE__";

/// Most entries read from a bundle's table.
pub const MAX_BUNDLE_ENTRIES: u64 = 256;

/// Longest entry ID read (a target triple plus a processor and features).
pub const MAX_BUNDLE_ENTRY_ID_LENGTH: u64 = 1024;

/// True when `data` starts with the offload-bundle magic, or a
/// compressed bundle's (`CCOB`).
pub fn is_offload_bundle(data: &[u8]) -> bool {
    data.starts_with(OFFLOAD_BUNDLE_MAGIC) || compressed_bundle::is_compressed_bundle(data)
}

fn read_u64(data: &[u8], at: usize) -> Result<u64> {
    at.checked_add(8)
        .and_then(|end| data.get(at..end))
        .and_then(|bytes| bytes.try_into().ok())
        .map(u64::from_le_bytes)
        .ok_or_else(|| status!(OutOfRange, "offload bundle header truncated at byte {at}"))
}

/// The entry IDs of a bundle (`hip-spirv64-amd-amdhsa--amdgcnspirv`, ...).
pub fn entry_ids(data: &[u8]) -> Result<Vec<String>> {
    if compressed_bundle::is_compressed_bundle(data) {
        let inner =
            compressed_bundle::decompress(data).map_err(|e| status!(InvalidArgument, "{e}"))?;
        if !inner.starts_with(OFFLOAD_BUNDLE_MAGIC) {
            return Err(status!(
                InvalidArgument,
                "compressed offload bundle holds no clang offload bundle"
            ));
        }
        return entry_ids(&inner);
    }
    if !data.starts_with(OFFLOAD_BUNDLE_MAGIC) {
        return Err(status!(InvalidArgument, "not a clang offload bundle"));
    }
    let count = read_u64(data, OFFLOAD_BUNDLE_MAGIC.len())?;
    if count > MAX_BUNDLE_ENTRIES {
        return Err(status!(
            ResourceExhausted,
            "offload bundle declares {count} entries; at most {MAX_BUNDLE_ENTRIES} are read"
        ));
    }
    let mut at = OFFLOAD_BUNDLE_MAGIC.len() + 8;
    let mut ids = Vec::with_capacity(count as usize);
    for _ in 0..count {
        let id_len = read_u64(data, at + 16)?;
        if id_len > MAX_BUNDLE_ENTRY_ID_LENGTH {
            return Err(status!(
                InvalidArgument,
                "offload bundle entry ID of {id_len} bytes is longer than {MAX_BUNDLE_ENTRY_ID_LENGTH}"
            ));
        }
        let start = at + 24;
        let id = data
            .get(start..start + id_len as usize)
            .ok_or_else(|| status!(OutOfRange, "offload bundle entry ID truncated"))?;
        ids.push(String::from_utf8_lossy(id).into_owned());
        at = start + id_len as usize;
    }
    Ok(ids)
}

/// The error for a module image that is an offload bundle rather than an ELF.
pub fn not_an_elf_error(data: &[u8]) -> Status {
    let entries = match entry_ids(data) {
        Ok(ids) => ids.join(", "),
        Err(error) => format!("unreadable: {}", error.message()),
    };
    let kind = if compressed_bundle::is_compressed_bundle(data) {
        "a compressed clang offload bundle (`CCOB`)"
    } else {
        "a clang offload bundle"
    };
    status!(
        InvalidArgument,
        "module image is {kind} (entries: {entries}), not an AMDGPU ELF code object; \
         SPIR-V modules (`--iree-rocm-use-spirv`) are finalised by the HIP runtime and cannot be loaded as HSACO"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bundle(ids: &[&str]) -> Vec<u8> {
        let mut out = OFFLOAD_BUNDLE_MAGIC.to_vec();
        out.extend_from_slice(&(ids.len() as u64).to_le_bytes());
        for id in ids {
            out.extend_from_slice(&0u64.to_le_bytes());
            out.extend_from_slice(&0u64.to_le_bytes());
            out.extend_from_slice(&(id.len() as u64).to_le_bytes());
            out.extend_from_slice(id.as_bytes());
        }
        out
    }

    #[test]
    fn reads_entry_ids() {
        let data = bundle(&[
            "host-x86_64-unknown-linux-gnu-",
            "hip-amdgcn-amd-amdhsa--gfx942",
        ]);
        assert_eq!(
            entry_ids(&data).unwrap(),
            [
                "host-x86_64-unknown-linux-gnu-",
                "hip-amdgcn-amd-amdhsa--gfx942"
            ]
        );
        assert!(not_an_elf_error(&data).mentions("hip-amdgcn-amd-amdhsa--gfx942"));
    }

    #[test]
    fn bounded_against_hostile_tables() {
        let data = bundle(&["abc"]);
        for len in 0..data.len() {
            assert!(entry_ids(&data[..len]).is_err(), "{len}");
        }
        let mut huge = bundle(&[]);
        huge[24..32].copy_from_slice(&u64::MAX.to_le_bytes());
        assert_eq!(
            entry_ids(&huge).unwrap_err().code(),
            crate::StatusCode::ResourceExhausted
        );
        let mut long_id = bundle(&["abc"]);
        long_id[48..56].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(entry_ids(&long_id).unwrap_err().mentions("longer than"));
    }

    /// clang-19's `--offload-compress` fat binary (`fixtures/hip/build.sh`):
    /// its device entries as `clang-offload-bundler-19 --list` gives them
    /// (which spells the host entry its own way).
    #[test]
    fn reads_a_compressed_bundles_entry_ids() {
        let data = include_bytes!("../../fixtures/hip/compressed.hip_fatbin");
        assert!(is_offload_bundle(data));
        let mut devices: Vec<String> = entry_ids(data)
            .unwrap()
            .into_iter()
            .filter(|id| !id.starts_with("host-"))
            .collect();
        devices.sort();
        assert_eq!(
            devices,
            [
                "hipv4-amdgcn-amd-amdhsa--gfx1100",
                "hipv4-amdgcn-amd-amdhsa--gfx942"
            ]
        );
        assert!(not_an_elf_error(data).mentions("compressed clang offload bundle"));
        let mut damaged = data.to_vec();
        damaged[4] = 9;
        assert!(entry_ids(&damaged).unwrap_err().mentions("version 9"));
    }
}
