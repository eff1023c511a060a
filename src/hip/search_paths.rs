//! Where to look for the HIP runtime library: IREE's search-path rules
//! applied to HIP's file names, and the UNAVAILABLE message. The entry
//! grammar and candidate expansion are [`crate::backend::search_paths`]
//! (shared with the real loader of every vendor library); the real loader
//! (`backend::dylib`, feature `real`) walks [`hip_library_candidates`] with
//! [`load_first`] and its own `dlopen`.
//!
//! - no search paths: the bare library names, found by the system loader;
//! - otherwise only the given entries, in order, stopping at the first that
//!   loads (see [`SearchPath`] for the `file:`/directory rule);
//! - if nothing loads: `UNAVAILABLE` listing every tried path with its error.

pub use crate::backend::search_paths::{
    FILE_PREFIX, HIP_LIBRARY_NAMES, HIP_NOT_AVAILABLE, MAX_SEARCH_PATHS, RCCL_LIBRARY_NAMES,
    SearchPath, canonicalize, library_candidates,
};
use crate::status;
use crate::status::{Result, Status};

/// The paths to try for the HIP runtime ([`HIP_LIBRARY_NAMES`] under `paths`).
pub fn hip_library_candidates(paths: &[SearchPath]) -> Vec<String> {
    library_candidates(paths, HIP_LIBRARY_NAMES)
}

/// A library that loaded, and the candidate path it loaded from.
#[derive(Debug)]
pub struct Loaded<L> {
    /// What the loader returned.
    pub library: L,
    /// The candidate that loaded (as passed to the loader).
    pub path: String,
}

/// Tries `load` on each candidate in order and returns the first success.
/// If none loads, the error is [`hip_not_available`] over every attempt.
pub fn load_first<L>(
    candidates: &[String],
    mut load: impl FnMut(&str) -> Result<L>,
) -> Result<Loaded<L>> {
    let mut tried = Vec::with_capacity(candidates.len());
    for path in candidates {
        match load(path) {
            Ok(library) => {
                return Ok(Loaded {
                    library,
                    path: path.clone(),
                });
            }
            Err(error) => tried.push((path.clone(), error)),
        }
    }
    Err(hip_not_available(&tried))
}

/// IREE's `UNAVAILABLE` for a HIP runtime that could not be loaded: the
/// fixed text ([`HIP_NOT_AVAILABLE`], this platform's file name only), then `"\n  Tried: <path>\n    <error>"` per attempt.
pub fn hip_not_available(tried: &[(String, Status)]) -> Status {
    let mut message = String::from(HIP_NOT_AVAILABLE);
    for (path, error) in tried {
        message.push_str(&format!("\n  Tried: {path}\n    {error}"));
    }
    if tried.is_empty() {
        message.push_str("(no candidate paths)");
    }
    status!(Unavailable, "{message}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::status::StatusCode;

    #[cfg(not(windows))]
    #[test]
    fn candidates_follow_iree_order() {
        assert_eq!(
            hip_library_candidates(&[]),
            ["libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.5"]
        );
        let paths = [
            SearchPath::Directory("/path/that/does/not/exist".into()),
            SearchPath::File("nowhere/libamdhip64.so".into()),
            SearchPath::Directory("filename_that_does_not_exist.dll".into()),
            SearchPath::Directory("/opt//rocm/lib/".into()),
        ];
        assert_eq!(
            library_candidates(&paths, &["libamdhip64.so"]),
            [
                "/path/that/does/not/exist/libamdhip64.so",
                "nowhere/libamdhip64.so",
                "filename_that_does_not_exist.dll/libamdhip64.so",
                "/opt/rocm/lib/libamdhip64.so",
            ]
        );
        let all = hip_library_candidates(&paths);
        assert_eq!(all.len(), 10);
        assert_eq!(
            all[..4],
            [
                "/path/that/does/not/exist/libamdhip64.so",
                "/path/that/does/not/exist/libamdhip64.so.6",
                "/path/that/does/not/exist/libamdhip64.so.5",
                "nowhere/libamdhip64.so",
            ]
        );
        assert_eq!(canonicalize("a//b///c"), "a/b/c");
        assert_eq!(canonicalize("//"), "/");
    }

    #[test]
    fn load_first_stops_at_first_success_and_lists_every_failure() {
        let candidates = vec!["a".to_owned(), "b".to_owned(), "c".to_owned()];
        let mut calls = Vec::new();
        let loaded = load_first(&candidates, |p| {
            calls.push(p.to_owned());
            if p == "b" {
                Ok(7)
            } else {
                Err(Status::not_found(format!("no {p}")))
            }
        })
        .unwrap();
        assert_eq!((loaded.library, loaded.path.as_str()), (7, "b"));
        assert_eq!(calls, ["a", "b"]);

        let err = load_first::<()>(&candidates, |p| Err(Status::not_found(format!("no {p}"))))
            .unwrap_err();
        assert_eq!(err.code(), StatusCode::Unavailable);
        assert!(
            err.message()
                .starts_with("HIP runtime library 'libamdhip64.so' not available")
        );
        assert!(err.message().ends_with(
            "\n  Tried: a\n    NOT_FOUND; no a\n  Tried: b\n    NOT_FOUND; no b\n  Tried: c\n    NOT_FOUND; no c"
        ));
    }
}
