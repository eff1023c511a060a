//! An offload bundle's bounds (`__CLANG_OFFLOAD_BUNDLE__`, clang's
//! `OffloadBundler.cpp`): whether its header, entries and entry IDs lie
//! inside its bytes, checked before a reader that trusts a bundle's own
//! extent is given it.

/// The magic an uncompressed offload bundle starts with.
pub(crate) const BUNDLE_MAGIC: &[u8] = b"__CLANG_OFFLOAD_BUNDLE__";
/// Most entries read from an offload bundle.
pub const MAX_BUNDLE_ENTRIES: u64 = 1024;
/// A bundle's header: magic and entry count.
const BUNDLE_HEADER_BYTES: usize = 32;
/// An entry's fixed part: offset, size, ID length.
const BUNDLE_ENTRY_BYTES: usize = 24;

fn u64_at(bytes: &[u8], at: usize) -> Option<u64> {
    let b = bytes.get(at..at.checked_add(8)?)?;
    Some(u64::from_le_bytes(b.try_into().ok()?))
}

/// Whether every header, entry and entry ID of the offload bundle
/// `bytes` lies inside it.
pub(crate) fn bundle_within(bytes: &[u8]) -> bool {
    let Some(count) = u64_at(bytes, BUNDLE_MAGIC.len()) else {
        return false;
    };
    if count > MAX_BUNDLE_ENTRIES {
        return false;
    }
    let mut at = BUNDLE_HEADER_BYTES;
    for _ in 0..count {
        let (Some(offset), Some(size), Some(id_len)) = (
            u64_at(bytes, at),
            u64_at(bytes, at + 8),
            u64_at(bytes, at + 16),
        ) else {
            return false;
        };
        let within = |start: u64, len: u64| {
            start
                .checked_add(len)
                .is_some_and(|end| end <= bytes.len() as u64)
        };
        let id_at = (at + BUNDLE_ENTRY_BYTES) as u64;
        if !within(offset, size) || !within(id_at, id_len) {
            return false;
        }
        at = (id_at + id_len) as usize;
    }
    true
}
