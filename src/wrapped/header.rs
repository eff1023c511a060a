//! IREE's 64-byte executable file header in front of a wrapped FlatBuffer.
//!
//! Layout (little-endian): the 4-byte file identifier as magic, a `u32`
//! version (0), a `u64` content size (the bytes after the header: the
//! FlatBuffer and anything it references), then six reserved `u64` words.

use crate::status;
use crate::status::{Result, Status, StatusCode};

/// Size of the executable header in bytes.
pub const HEADER_SIZE: usize = 64;

/// The only header version this build understands.
pub const HEADER_VERSION: u32 = 0;

/// File identifier of IREE's wrapped AMDGPU executables.
pub const AMD1_IDENTIFIER: [u8; 4] = *b"AMD1";

/// File identifier of IREE's wrapped HIP executables.
pub const HIP1_IDENTIFIER: [u8; 4] = *b"HIP1";

/// How much of the input slice the caller vouches for.
///
/// IREE's loaders take either a known length or none at all (`data_length == 0`),
/// in which case the size is inferred from the header and trusted blindly. Here
/// the "unknown length" case still has a slice: the executable starts at its
/// first byte and may be followed by unrelated bytes, and the inferred size is
/// checked against what is actually there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataExtent {
    /// The slice is exactly the executable (trailing bytes after the content
    /// are tolerated, as IREE does).
    Known,
    /// The executable's length is unknown: infer it from its own header (or,
    /// for a raw HSACO, its ELF headers), bounded by the slice.
    Infer,
}

/// A parsed executable header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExecutableHeader {
    /// The file identifier (`AMD1`, `HIP1`).
    pub magic: [u8; 4],
    /// The content version; always [`HEADER_VERSION`] once parsed.
    pub version: u32,
    /// Bytes following the header that belong to the executable.
    pub content_size: u64,
}

impl ExecutableHeader {
    /// The total executable size: header plus content.
    pub fn total_size(&self) -> u64 {
        // content_size <= slice length - 64 once parsed, so this cannot overflow.
        self.content_size.saturating_add(HEADER_SIZE as u64)
    }

    /// The 64 header bytes for `content_size` bytes of content.
    pub fn encode(magic: [u8; 4], content_size: u64) -> [u8; HEADER_SIZE] {
        let mut out = [0u8; HEADER_SIZE];
        out[0..4].copy_from_slice(&magic);
        out[4..8].copy_from_slice(&HEADER_VERSION.to_le_bytes());
        out[8..16].copy_from_slice(&content_size.to_le_bytes());
        out
    }
}

/// True when `data` starts with `identifier` (too short data is not wrapped).
pub fn has_identifier(data: &[u8], identifier: [u8; 4]) -> bool {
    data.get(..4) == Some(&identifier[..])
}

/// Reads the header and returns it with the content bytes (`data[64..64 + content_size]`).
///
/// The checks and their order are IREE's (`iree_hal_read_executable_flatbuffer_header`):
/// length, identifier, zero content size, version, content bounds. With
/// [`DataExtent::Infer`] a short slice or a content size past its end are
/// `OUT_OF_RANGE` instead of being trusted.
pub fn read_header(
    data: &[u8],
    identifier: [u8; 4],
    extent: DataExtent,
) -> Result<(ExecutableHeader, &[u8])> {
    let Some(bytes) = data.first_chunk::<HEADER_SIZE>() else {
        return Err(match extent {
            DataExtent::Known => Status::new(
                StatusCode::InvalidArgument,
                "executable flatbuffer data is not present or less than header size",
            ),
            DataExtent::Infer => status!(
                OutOfRange,
                "executable header is truncated: {} bytes available of {}",
                data.len(),
                HEADER_SIZE
            ),
        });
    };
    // A fixed-size array: these constant indices are checked at compile time.
    let [
        m0,
        m1,
        m2,
        m3,
        v0,
        v1,
        v2,
        v3,
        s0,
        s1,
        s2,
        s3,
        s4,
        s5,
        s6,
        s7,
        ..,
    ] = *bytes;
    if [m0, m1, m2, m3] != identifier {
        return Err(identifier_mismatch(identifier));
    }
    let version = u32::from_le_bytes([v0, v1, v2, v3]);
    let content_size = u64::from_le_bytes([s0, s1, s2, s3, s4, s5, s6, s7]);
    if content_size == 0 {
        return Err(Status::new(
            StatusCode::InvalidArgument,
            "executable flatbuffer reported as zero-length",
        ));
    }
    if version != HEADER_VERSION {
        return Err(status!(
            Incompatible,
            "executable version {version} not compatible with this build"
        ));
    }
    let remaining = data.len() - HEADER_SIZE;
    let content = usize::try_from(content_size)
        .ok()
        .filter(|&size| size <= remaining)
        .and_then(|size| data.get(HEADER_SIZE..HEADER_SIZE + size))
        .ok_or_else(|| {
            status!(
                OutOfRange,
                "executable flatbuffer size prefix out of bounds (size is {content_size} but only {remaining} bytes available)"
            )
        })?;
    let header = ExecutableHeader {
        magic: identifier,
        version,
        content_size,
    };
    Ok((header, content))
}

fn identifier_mismatch(identifier: [u8; 4]) -> Status {
    status!(
        InvalidArgument,
        "executable file identifier does not match; expected `{}`",
        String::from_utf8_lossy(&identifier)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wrapped(magic: &[u8; 4], version: u32, content_size: u64, content: usize) -> Vec<u8> {
        let mut data = ExecutableHeader::encode(*magic, content_size).to_vec();
        data[4..8].copy_from_slice(&version.to_le_bytes());
        data.resize(HEADER_SIZE + content, 0xAB);
        data
    }

    #[test]
    fn reads_content_and_tolerates_trailing_bytes() {
        let data = wrapped(b"AMD1", 0, 16, 20);
        for extent in [DataExtent::Known, DataExtent::Infer] {
            let (header, content) = read_header(&data, AMD1_IDENTIFIER, extent).unwrap();
            assert_eq!(header.content_size, 16);
            assert_eq!(header.total_size(), 80);
            assert_eq!(content.len(), 16);
        }
    }

    #[test]
    fn short_input_known_is_invalid_argument_infer_is_out_of_range() {
        let data = wrapped(b"AMD1", 0, 16, 0);
        let short = &data[..63];
        let err = read_header(short, AMD1_IDENTIFIER, DataExtent::Known).unwrap_err();
        assert_eq!(err.code(), StatusCode::InvalidArgument);
        assert!(err.mentions("less than header size"));
        let err = read_header(short, AMD1_IDENTIFIER, DataExtent::Infer).unwrap_err();
        assert_eq!(err.code(), StatusCode::OutOfRange);
        assert!(err.mentions("truncated"));
        assert!(read_header(&[], AMD1_IDENTIFIER, DataExtent::Known).is_err());
    }

    #[test]
    fn identifier_mismatch_names_the_expected_identifier() {
        let data = wrapped(b"HIP1", 0, 16, 16);
        let err = read_header(&data, AMD1_IDENTIFIER, DataExtent::Known).unwrap_err();
        assert_eq!(err.code(), StatusCode::InvalidArgument);
        assert!(err.mentions("expected `AMD1`"));
    }

    #[test]
    fn zero_content_size_is_invalid_argument() {
        let data = wrapped(b"AMD1", 0, 0, 16);
        let err = read_header(&data, AMD1_IDENTIFIER, DataExtent::Known).unwrap_err();
        assert_eq!(err.code(), StatusCode::InvalidArgument);
        assert!(err.mentions("zero-length"));
    }

    #[test]
    fn nonzero_version_is_incompatible() {
        let data = wrapped(b"AMD1", 1, 16, 16);
        let err = read_header(&data, AMD1_IDENTIFIER, DataExtent::Known).unwrap_err();
        assert_eq!(err.code(), StatusCode::Incompatible);
        assert!(err.mentions("version 1"));
    }

    #[test]
    fn content_past_the_end_is_out_of_range_in_both_modes() {
        for (size, extent) in [
            (17, DataExtent::Known),
            (17, DataExtent::Infer),
            (u64::MAX, DataExtent::Known),
            (u64::MAX, DataExtent::Infer),
        ] {
            let data = wrapped(b"AMD1", 0, size, 16);
            let err = read_header(&data, AMD1_IDENTIFIER, extent).unwrap_err();
            assert_eq!(err.code(), StatusCode::OutOfRange, "{size} {extent:?}");
            assert!(err.mentions("out of bounds"));
        }
    }
}
