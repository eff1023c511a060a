//! RCCL (AMD's NCCL) for collectives: the deferred "unavailable" state
//! (the version rule is [`crate::backend::nccl_version`], shared with the
//! real loader).
//!
//! The HIP driver loads RCCL optionally. If it is missing or too old the
//! driver still works; the reason is kept and reported only when a
//! collective channel is requested ([`Collectives::require`]).
//!
//! Decision (IREE differs): *every* RCCL load failure is deferred, not only
//! `UNAVAILABLE`. IREE fails HIP driver creation when RCCL passes the
//! version check but misses a symbol (`NOT_FOUND`), so a broken RCCL
//! install makes plain single-GPU HIP unusable; here that error is kept with
//! its own code and surfaces on the first collective request instead.

pub use crate::backend::nccl_version::{
    MIN_NCCL_VERSION_CODE, NCCL_MAJOR, NCCL_MINOR, NcclVersion, check_nccl_version,
    nccl_version_code,
};
use crate::backend::search_paths::RCCL_LIBRARY_NAMES;
use crate::status;
use crate::status::{Result, Status};

/// IREE's `UNAVAILABLE` for an RCCL library that could not be opened (with
/// the file name IREE misspells as `lirnccl.so` corrected, and only this
/// platform's file named).
pub fn rccl_not_available() -> Status {
    status!(
        Unavailable,
        "RCCL runtime library version {NCCL_MAJOR}.{NCCL_MINOR} and greater not available; \
         ensure installed and the shared library ({}) is on your {}.",
        RCCL_LIBRARY_NAMES.join(", "),
        if cfg!(windows) {
            "PATH"
        } else {
            "LD_LIBRARY_PATH"
        }
    )
}

/// Whether collectives can be used on this driver.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Collectives {
    /// RCCL loaded with an acceptable version.
    Available(NcclVersion),
    /// RCCL could not be used; the reason is reported on request.
    Unavailable(Status),
}

impl Collectives {
    /// The RCCL version, or the deferred load error when a collective
    /// channel is requested.
    pub fn require(&self) -> Result<NcclVersion> {
        match self {
            Collectives::Available(version) => Ok(*version),
            Collectives::Unavailable(reason) => Err(reason
                .clone()
                .annotate("creating a collective channel requires RCCL")),
        }
    }

    /// True if RCCL is usable.
    pub fn is_available(&self) -> bool {
        matches!(self, Collectives::Available(_))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::status::StatusCode;

    #[test]
    fn encode_decode_like_nccl() {
        assert_eq!(MIN_NCCL_VERSION_CODE, 21800);
        assert_eq!(nccl_version_code(2, 18, 3), 21803);
        assert_eq!(nccl_version_code(2, 8, 4), 2804);
        assert_eq!(nccl_version_code(2, 9, 0), 20900);
        assert_eq!(nccl_version_code(3, 0, 0), 30000);
        for (code, v) in [(21803, (2, 18, 3)), (2804, (2, 8, 4)), (22005, (2, 20, 5))] {
            let d = NcclVersion::decode(code);
            assert_eq!((d.major, d.minor, d.patch), v);
        }
    }

    #[test]
    fn version_rule() {
        assert_eq!(check_nccl_version(21800).unwrap().to_string(), "2.18.0");
        assert!(check_nccl_version(22703).is_ok());
        for code in [21799, 2804, 30000, 0, -5, i32::MIN, i32::MAX] {
            let e = check_nccl_version(code).unwrap_err();
            assert_eq!(e.code(), StatusCode::Unavailable, "{code}");
            assert!(
                e.message().ends_with("but >=2.18 and <3 is required"),
                "{e}"
            );
        }
        assert_eq!(
            check_nccl_version(21799).unwrap_err().message(),
            "NCCL version is 2.17.99, but >=2.18 and <3 is required"
        );
    }

    #[test]
    fn unavailable_is_deferred_with_its_own_code() {
        let c = Collectives::Unavailable(rccl_not_available());
        assert!(!c.is_available());
        let e = c.require().unwrap_err();
        assert_eq!(e.code(), StatusCode::Unavailable);
        assert!(
            e.message()
                .starts_with("RCCL runtime library version 2.18 and greater not available")
        );
        assert!(e.mentions("collective channel"));
        let broken = Collectives::Unavailable(Status::not_found("ncclSend"));
        assert_eq!(broken.require().unwrap_err().code(), StatusCode::NotFound);
        let ok = Collectives::Available(NcclVersion::decode(21803));
        assert_eq!(ok.require().unwrap().minor, 18);
    }
}
