//! Compressed clang offload bundles (`CCOB`): what `clang --offload-compress`
//! emits and ROCm 6's libraries ship — a small header, then a clang offload
//! bundle (`__CLANG_OFFLOAD_BUNDLE__`) compressed by zlib or zstd (LLVM's
//! `clang/lib/Driver/OffloadBundler.cpp`, `CompressedOffloadBundle`).
//!
//! Header, little-endian, by version:
//!
//! | version | after `CCOB`, `u16` version, `u16` method | header bytes |
//! |---|---|---|
//! | 1 | `u32` uncompressed size, `u64` hash | 20 |
//! | 2 | `u32` total size (header included), `u32` uncompressed size, `u64` hash | 24 |
//! | 3 | `u64` total size, `u64` uncompressed size, `u64` hash | 32 |
//!
//! The method is `llvm::compression::Format`: 0 zlib, 1 zstd. Version 1
//! has no total size: its compressed bytes run to the end of what holds
//! it (a file, a section), so only a reader with a length can read it.
//!
//! Every size in the header is untrusted: the output grows with what the
//! stream really decompresses to, at most [`MAX_DECOMPRESSED_BYTES`], and
//! must come to the header's uncompressed size. The hash (a cache key for
//! the compiler, not an integrity check) is not verified.

use std::fmt;
use std::io::Read;

/// The magic a compressed bundle starts with.
pub const MAGIC: &[u8; 4] = b"CCOB";
/// The longest header (version 3).
pub const MAX_HEADER_BYTES: usize = 32;
/// Most bytes a compressed bundle may decompress to (a bundle of code
/// objects for many processors).
pub const MAX_DECOMPRESSED_BYTES: u64 = 1 << 30;
/// Most bytes of output reserved before the stream shows it needs them.
const INITIAL_RESERVE: u64 = 16 << 20;
/// The zstd window the decoder accepts (the largest a level-22 frame of
/// this size needs).
const MAX_ZSTD_WINDOW: u64 = 1 << 30;

/// Why a compressed bundle cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompressedBundleError(pub String);

impl fmt::Display for CompressedBundleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "compressed offload bundle: {}", self.0)
    }
}

impl std::error::Error for CompressedBundleError {}

fn err<T>(message: impl Into<String>) -> Result<T, CompressedBundleError> {
    Err(CompressedBundleError(message.into()))
}

/// The compression a bundle names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// `llvm::compression::Format::Zlib` (0).
    Zlib,
    /// `llvm::compression::Format::Zstd` (1).
    Zstd,
}

/// A compressed bundle's header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// 1, 2 or 3.
    pub version: u16,
    /// How the bundle is compressed.
    pub method: Method,
    /// The header's bytes.
    pub header_bytes: usize,
    /// The whole compressed bundle's bytes, header included (versions 2
    /// and 3; version 1 runs to the end of what holds it).
    pub total_bytes: Option<u64>,
    /// What the bundle decompresses to, as the header says.
    pub uncompressed_bytes: u64,
    /// The compiler's hash of the uncompressed bundle.
    pub hash: u64,
}

/// True when `bytes` starts with the compressed bundle magic.
pub fn is_compressed_bundle(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?))
}

fn u32_at(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from(u32::from_le_bytes(
        b.get(at..at + 4)?.try_into().ok()?,
    )))
}

fn u64_at(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(b.get(at..at + 8)?.try_into().ok()?))
}

impl Header {
    /// Reads the header at the start of `bytes` (at least its
    /// [`MAX_HEADER_BYTES`] first bytes, or all of a shorter bundle).
    pub fn parse(bytes: &[u8]) -> Result<Header, CompressedBundleError> {
        if !is_compressed_bundle(bytes) {
            return err("no `CCOB` magic");
        }
        let truncated = || CompressedBundleError("the header is truncated".into());
        let version = u16_at(bytes, 4).ok_or_else(truncated)?;
        let method = match u16_at(bytes, 6).ok_or_else(truncated)? {
            0 => Method::Zlib,
            1 => Method::Zstd,
            m => {
                return err(format!(
                    "compression method {m} (0 zlib and 1 zstd are known)"
                ));
            }
        };
        let (header_bytes, total_bytes, uncompressed_bytes, hash) = match version {
            1 => (20, None, u32_at(bytes, 8), u64_at(bytes, 12)),
            2 => (24, u32_at(bytes, 8), u32_at(bytes, 12), u64_at(bytes, 16)),
            3 => (32, u64_at(bytes, 8), u64_at(bytes, 16), u64_at(bytes, 24)),
            v => return err(format!("version {v} (1, 2 and 3 are known)")),
        };
        let (Some(uncompressed_bytes), Some(hash)) = (uncompressed_bytes, hash) else {
            return Err(truncated());
        };
        if version > 1 && total_bytes.is_none() {
            return Err(truncated());
        }
        if total_bytes.is_some_and(|t| t < header_bytes as u64) {
            return err(format!(
                "a total size of {} bytes, less than its {header_bytes}-byte header",
                total_bytes.unwrap_or(0)
            ));
        }
        if uncompressed_bytes > MAX_DECOMPRESSED_BYTES {
            return err(format!(
                "decompresses to {uncompressed_bytes} bytes (at most {MAX_DECOMPRESSED_BYTES})"
            ));
        }
        Ok(Header {
            version,
            method,
            header_bytes,
            total_bytes,
            uncompressed_bytes,
            hash,
        })
    }
}

/// The clang offload bundle a compressed bundle holds. `bytes` is the
/// compressed bundle (for version 1, exactly: its data runs to the end);
/// bytes past a version 2 or 3 bundle's total size are not read.
pub fn decompress(bytes: &[u8]) -> Result<Vec<u8>, CompressedBundleError> {
    let header = Header::parse(bytes)?;
    let end = match header.total_bytes {
        Some(total) => {
            if total > bytes.len() as u64 {
                return err(format!(
                    "a total size of {total} bytes, past the {} bytes that hold it",
                    bytes.len()
                ));
            }
            total as usize
        }
        None => bytes.len(),
    };
    let data = bytes.get(header.header_bytes..end).unwrap_or_default();
    let out = match header.method {
        Method::Zlib => inflate(data)?,
        Method::Zstd => unzstd(data)?,
    };
    if out.len() as u64 != header.uncompressed_bytes {
        return err(format!(
            "decompressed to {} bytes; the header says {}",
            out.len(),
            header.uncompressed_bytes
        ));
    }
    Ok(out)
}

fn inflate(data: &[u8]) -> Result<Vec<u8>, CompressedBundleError> {
    miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(data, MAX_DECOMPRESSED_BYTES as usize)
        .map_err(|e| match e.status {
            miniz_oxide::inflate::TINFLStatus::HasMoreOutput => CompressedBundleError(format!(
                "zlib data decompresses past {MAX_DECOMPRESSED_BYTES} bytes"
            )),
            status => CompressedBundleError(format!("zlib data does not decompress ({status:?})")),
        })
}

fn unzstd(data: &[u8]) -> Result<Vec<u8>, CompressedBundleError> {
    let mut source = data;
    let decoder =
        ruzstd::decoding::StreamingDecoder::new_with_max_window_size(&mut source, MAX_ZSTD_WINDOW)
            .map_err(|e| CompressedBundleError(format!("zstd frame header: {e}")))?;
    let mut out = Vec::with_capacity(INITIAL_RESERVE.min(data.len() as u64 * 4) as usize);
    decoder
        .take(MAX_DECOMPRESSED_BYTES + 1)
        .read_to_end(&mut out)
        .map_err(|e| CompressedBundleError(format!("zstd data does not decompress: {e}")))?;
    if out.len() as u64 > MAX_DECOMPRESSED_BYTES {
        return err(format!(
            "zstd data decompresses past {MAX_DECOMPRESSED_BYTES} bytes"
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `clang++-19 -x hip --offload-compress` of a small program: the
    /// `.hip_fatbin` section's compressed bundle (version 2, zstd).
    const FIXTURE: &[u8] = include_bytes!("../../fixtures/hip/compressed.hip_fatbin");

    #[test]
    fn the_compilers_bundle_decompresses_to_an_offload_bundle() {
        let header = Header::parse(FIXTURE).unwrap();
        assert_eq!((header.version, header.method), (2, Method::Zstd));
        assert_eq!(header.total_bytes, Some(FIXTURE.len() as u64));
        let bundle = decompress(FIXTURE).unwrap();
        assert_eq!(bundle.len() as u64, header.uncompressed_bytes);
        assert!(bundle.starts_with(b"__CLANG_OFFLOAD_BUNDLE__"));
    }

    #[test]
    fn every_truncation_and_a_bad_header_is_an_error() {
        for len in 0..FIXTURE.len() {
            assert!(decompress(&FIXTURE[..len]).is_err(), "{len}");
        }
        let mut bad = FIXTURE.to_vec();
        bad[4] = 9;
        assert!(decompress(&bad).unwrap_err().0.contains("version 9"));
        let mut bad = FIXTURE.to_vec();
        bad[6] = 7;
        assert!(decompress(&bad).unwrap_err().0.contains("method 7"));
        let mut bad = FIXTURE.to_vec();
        bad[12..16].copy_from_slice(&1234u32.to_le_bytes());
        assert!(
            decompress(&bad)
                .unwrap_err()
                .0
                .contains("the header says 1234")
        );
        let mut bad = FIXTURE.to_vec();
        bad[40] ^= 0xff;
        assert!(decompress(&bad).is_err());
    }

    /// A version 3 header over zlib data, built by hand: both decode, and
    /// a size past the limit is refused before anything is allocated.
    #[test]
    fn version_3_and_zlib_and_the_limit() {
        let payload = b"__CLANG_OFFLOAD_BUNDLE__ and more bytes".repeat(50);
        let data = miniz_oxide::deflate::compress_to_vec_zlib(&payload, 6);
        let mut bytes = MAGIC.to_vec();
        bytes.extend(3u16.to_le_bytes());
        bytes.extend(0u16.to_le_bytes());
        bytes.extend((32 + data.len() as u64).to_le_bytes());
        bytes.extend((payload.len() as u64).to_le_bytes());
        bytes.extend(0u64.to_le_bytes());
        bytes.extend(&data);
        assert_eq!(decompress(&bytes).unwrap(), payload);
        bytes[16..24].copy_from_slice(&(MAX_DECOMPRESSED_BYTES + 1).to_le_bytes());
        assert!(decompress(&bytes).unwrap_err().0.contains("at most"));
        // Version 1: the data runs to the end.
        let mut v1 = MAGIC.to_vec();
        v1.extend(1u16.to_le_bytes());
        v1.extend(0u16.to_le_bytes());
        v1.extend((payload.len() as u32).to_le_bytes());
        v1.extend(0u64.to_le_bytes());
        v1.extend(&data);
        assert_eq!(decompress(&v1).unwrap(), payload);
    }
}
