//! Where to look for the HIP runtime library: IREE's search-path rules, as
//! pure data. The real loader (`backend::dylib`, feature `real`) walks
//! [`hip_library_candidates`] with [`load_first`] and its own `dlopen`.
//!
//! Rules (IREE's `iree_hal_hip_dynamic_symbols_initialize`):
//! - no search paths: the bare library name, found by the system loader;
//! - otherwise only the given entries, in order, stopping at the first that
//!   loads: `file:<path>` is loaded verbatim (prefix stripped); anything else
//!   is a directory, tried as `<dir>/<library name>` with duplicate
//!   separators collapsed;
//! - if nothing loads: `UNAVAILABLE` listing every tried path with its error.
//!
//! Unlike IREE, empty entries (`""`, a bare `file:`) are rejected up front:
//! IREE turns them into `/libamdhip64.so` or `dlopen("")` (the main program).

use crate::status;
use crate::status::{Result, Status};

/// The prefix marking a search-path entry as an exact file.
pub const FILE_PREFIX: &str = "file:";

/// The HIP runtime's file names on this platform, in the order tried.
#[cfg(windows)]
pub const HIP_LIBRARY_NAMES: &[&str] = &["amdhip64.dll"];
/// The HIP runtime's file names on this platform, in the order tried:
/// IREE's one name, then the ROCm 6 and 5 SONAMEs (the bare `.so` exists
/// only with a `-dev` package installed).
#[cfg(not(windows))]
pub const HIP_LIBRARY_NAMES: &[&str] = &["libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.5"];

/// The most search-path entries accepted (options or environment); more is
/// a mistake, not a search.
pub const MAX_SEARCH_PATHS: usize = 64;

/// RCCL's file names on this platform, in the order tried (system search only).
#[cfg(windows)]
pub const RCCL_LIBRARY_NAMES: &[&str] = &["rccl.dll"];
/// RCCL's file names on this platform, in the order tried (system search only).
#[cfg(not(windows))]
pub const RCCL_LIBRARY_NAMES: &[&str] = &["librccl.so"];

/// One entry of the HIP library search path.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SearchPath {
    /// `file:<path>`: this exact file.
    File(String),
    /// A directory holding the library under its platform name.
    Directory(String),
}

impl SearchPath {
    /// Parses one entry (`file:<path>` or a directory); empty entries are
    /// `INVALID_ARGUMENT`.
    pub fn parse(entry: &str) -> Result<SearchPath> {
        match entry.strip_prefix(FILE_PREFIX) {
            Some("") => Err(Status::invalid_argument(
                "empty 'file:' entry in the HIP library search path",
            )),
            Some(file) => Ok(SearchPath::File(file.to_owned())),
            None if entry.is_empty() => Err(Status::invalid_argument(
                "empty entry in the HIP library search path",
            )),
            None => Ok(SearchPath::Directory(entry.to_owned())),
        }
    }

    /// The entry as the user writes it (`file:` prefix included).
    pub fn as_entry(&self) -> String {
        match self {
            SearchPath::File(file) => format!("{FILE_PREFIX}{file}"),
            SearchPath::Directory(dir) => dir.clone(),
        }
    }
}

/// IREE's `iree_file_path_canonicalize`: on Windows `/` becomes `\`; then
/// runs of the separator collapse to one. Nothing else changes.
pub fn canonicalize(path: &str) -> String {
    let sep = if cfg!(windows) { '\\' } else { '/' };
    let mut out = String::with_capacity(path.len());
    for c in path.chars() {
        let c = if cfg!(windows) && c == '/' { '\\' } else { c };
        if c == sep && out.ends_with(sep) {
            continue;
        }
        out.push(c);
    }
    out
}

/// The paths to try, in order, for a library called `names` under `paths`
/// (the bare names when `paths` is empty).
pub fn library_candidates(paths: &[SearchPath], names: &[&str]) -> Vec<String> {
    if paths.is_empty() {
        return names.iter().map(|n| (*n).to_owned()).collect();
    }
    let mut out = Vec::new();
    for path in paths {
        match path {
            SearchPath::File(file) => out.push(file.clone()),
            SearchPath::Directory(dir) => {
                out.extend(names.iter().map(|n| canonicalize(&format!("{dir}/{n}"))))
            }
        }
    }
    out
}

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
/// fixed text, then `"\n  Tried: <path>\n    <error>"` per attempt.
pub fn hip_not_available(tried: &[(String, Status)]) -> Status {
    let mut message = String::from(
        "HIP runtime library 'amdhip64.dll'/'libamdhip64.so' not available: \
         please ensure installed and in dynamic library search path: ",
    );
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

    #[test]
    fn entries_parse_and_reject_empty() {
        assert_eq!(
            SearchPath::parse("file:/opt/rocm/lib/libamdhip64.so.6"),
            Ok(SearchPath::File("/opt/rocm/lib/libamdhip64.so.6".into()))
        );
        assert_eq!(
            SearchPath::parse("/opt/rocm/lib"),
            Ok(SearchPath::Directory("/opt/rocm/lib".into()))
        );
        assert_eq!(
            SearchPath::parse("").unwrap_err().code(),
            StatusCode::InvalidArgument
        );
        assert_eq!(
            SearchPath::parse("file:").unwrap_err().code(),
            StatusCode::InvalidArgument
        );
        assert_eq!(SearchPath::parse("file:x").unwrap().as_entry(), "file:x");
    }

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
                .starts_with("HIP runtime library 'amdhip64.dll'/'libamdhip64.so' not available")
        );
        assert!(err.message().ends_with(
            "\n  Tried: a\n    NOT_FOUND; no a\n  Tried: b\n    NOT_FOUND; no b\n  Tried: c\n    NOT_FOUND; no c"
        ));
    }
}
