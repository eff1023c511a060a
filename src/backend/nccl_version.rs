//! NCCL's version encoding and IREE's version rule for RCCL: what the real
//! loader checks when it opens the library and what the HIP driver reports.

use std::fmt;

use crate::status;
use crate::status::Result;

/// The NCCL API major version IREE is built against (`rccl.h`).
pub const NCCL_MAJOR: i32 = 2;
/// The NCCL API minor version IREE is built against (`rccl.h`).
pub const NCCL_MINOR: i32 = 18;

/// NCCL's `NCCL_VERSION(x, y, z)` encoding: `x*1000 + y*100 + z` up to
/// 2.8, `x*10000 + y*100 + z` after.
pub const fn nccl_version_code(major: i32, minor: i32, patch: i32) -> i32 {
    if major <= 2 && minor <= 8 {
        major * 1000 + minor * 100 + patch
    } else {
        major * 10000 + minor * 100 + patch
    }
}

/// The lowest acceptable `ncclGetVersion` value: `NCCL_VERSION(2, 18, 0)` = 21800.
pub const MIN_NCCL_VERSION_CODE: i32 = nccl_version_code(NCCL_MAJOR, NCCL_MINOR, 0);

/// A decoded NCCL version.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct NcclVersion {
    /// Major version.
    pub major: i32,
    /// Minor version.
    pub minor: i32,
    /// Patch level.
    pub patch: i32,
}

impl NcclVersion {
    /// Decodes an `ncclGetVersion` value by IREE's rule (codes below 20000
    /// use the old encoding).
    pub fn decode(code: i32) -> NcclVersion {
        let (major, minor) = if code < 20000 {
            (code / 1000, (code % 1000) / 100)
        } else {
            (code / 10000, (code % 10000) / 100)
        };
        NcclVersion {
            major,
            minor,
            patch: code % 100,
        }
    }
}

impl fmt::Display for NcclVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)
    }
}

/// IREE's version rule: major must be [`NCCL_MAJOR`] and the code at least
/// [`MIN_NCCL_VERSION_CODE`]; otherwise `UNAVAILABLE` with IREE's message.
pub fn check_nccl_version(code: i32) -> Result<NcclVersion> {
    let version = NcclVersion::decode(code);
    if version.major != NCCL_MAJOR || code < MIN_NCCL_VERSION_CODE {
        return Err(status!(
            Unavailable,
            "NCCL version is {version}, but >={NCCL_MAJOR}.{NCCL_MINOR} and <{} is required",
            NCCL_MAJOR + 1
        ));
    }
    Ok(version)
}
