//! The library search-path entry grammar and candidate expansion, shared by
//! the HIP driver ([`crate::hip::search_paths`]) and the real loader of every
//! vendor library (`backend::dylib::library`, feature `real`).
//!
//! IREE's rules (`iree_hal_hip_dynamic_symbols_initialize`):
//! - `file:<path>` is that exact file, loaded verbatim (prefix stripped);
//! - any other entry is a directory, tried as `<dir>/<name>` for each of the
//!   library's file names, canonicalized (duplicate separators collapsed).
//!   A name that looks like a file (`filename_that_does_not_exist.dll`,
//!   `libfoo.so`) is still a directory: only `file:` makes a file;
//! - no entries at all: the bare file names, for the system loader.
//!
//! Unlike IREE, empty entries (`""`, a bare `file:`) are rejected up front:
//! IREE turns them into `/<name>` or `dlopen("")` (the main program).

use crate::status::{Result, Status};

/// The HIP runtime's file names on this platform, in the order tried.
#[cfg(windows)]
pub const HIP_LIBRARY_NAMES: &[&str] = &["amdhip64.dll"];
/// The HIP runtime's file names on this platform, in the order tried:
/// IREE's one name, then the ROCm 6 and 5 SONAMEs (the bare `.so` exists
/// only with a `-dev` package installed).
#[cfg(not(windows))]
pub const HIP_LIBRARY_NAMES: &[&str] = &["libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.5"];

/// IREE's `UNAVAILABLE` text for a HIP runtime that did not load, naming
/// this platform's library only (IREE names `amdhip64.dll` and
/// `libamdhip64.so` on every platform); the tried paths follow it.
#[cfg(windows)]
pub const HIP_NOT_AVAILABLE: &str = "HIP runtime library 'amdhip64.dll' not available: please \
                                     ensure installed and in dynamic library search path: ";
/// IREE's `UNAVAILABLE` text for a HIP runtime that did not load, naming
/// this platform's library only (IREE names `amdhip64.dll` and
/// `libamdhip64.so` on every platform); the tried paths follow it.
#[cfg(not(windows))]
pub const HIP_NOT_AVAILABLE: &str = "HIP runtime library 'libamdhip64.so' not available: please \
                                     ensure installed and in dynamic library search path: ";

/// RCCL's file names on this platform, in the order tried (system search only).
#[cfg(windows)]
pub const RCCL_LIBRARY_NAMES: &[&str] = &["rccl.dll"];
/// RCCL's file names on this platform, in the order tried (system search only).
#[cfg(not(windows))]
pub const RCCL_LIBRARY_NAMES: &[&str] = &["librccl.so"];

/// The prefix marking a search-path entry as an exact file.
pub const FILE_PREFIX: &str = "file:";

/// The most search-path entries accepted (options or environment); more is
/// a mistake, not a search.
pub const MAX_SEARCH_PATHS: usize = 64;

/// One entry of a library search path.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SearchPath {
    /// `file:<path>`: this exact file.
    File(String),
    /// A directory holding the library under its platform names.
    Directory(String),
}

impl SearchPath {
    /// Parses one entry (`file:<path>` or a directory); empty entries are
    /// `INVALID_ARGUMENT`.
    pub fn parse(entry: &str) -> Result<SearchPath> {
        match entry.strip_prefix(FILE_PREFIX) {
            Some("") => Err(Status::invalid_argument(
                "empty 'file:' entry in the library search path",
            )),
            Some(file) => Ok(SearchPath::File(file.to_owned())),
            None if entry.is_empty() => Err(Status::invalid_argument(
                "empty entry in the library search path",
            )),
            None => Ok(SearchPath::Directory(entry.to_owned())),
        }
    }

    /// [`SearchPath::parse`] with the rule of IREE's AMDGPU driver
    /// (`iree_hal_amdgpu_libhsa_try_load_library_from_path`) added: an
    /// entry whose extension is `so`, `dll`, `dylib` or `sos`
    /// (`iree_file_path_is_dynamic_library`) is that file, without `file:`.
    /// IREE's HIP driver has no such rule (a `.dll` entry is a directory).
    pub fn parse_amdgpu(entry: &str) -> Result<SearchPath> {
        let extension = entry.rsplit_once('.').map(|(_, ext)| ext);
        let is_library = !entry.starts_with(FILE_PREFIX)
            && !extension.is_some_and(|ext| ext.contains('/'))
            && matches!(extension, Some("so" | "dll" | "dylib" | "sos"));
        if is_library {
            return Ok(SearchPath::File(entry.to_owned()));
        }
        SearchPath::parse(entry)
    }

    /// The entry as the user writes it (`file:` prefix included).
    pub fn as_entry(&self) -> String {
        match self {
            SearchPath::File(file) => format!("{FILE_PREFIX}{file}"),
            SearchPath::Directory(dir) => dir.clone(),
        }
    }

    /// The paths this entry expands to for a library called `names`.
    pub fn candidates(&self, names: &[&str]) -> Vec<String> {
        match self {
            SearchPath::File(file) => vec![file.clone()],
            SearchPath::Directory(dir) => names
                .iter()
                .map(|n| canonicalize(&format!("{dir}/{n}")))
                .collect(),
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
    paths.iter().flat_map(|p| p.candidates(names)).collect()
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
        // Only `file:` makes a file: a shared-object-looking name is a directory.
        assert_eq!(
            SearchPath::parse("/a/libhsa.so.1"),
            Ok(SearchPath::Directory("/a/libhsa.so.1".into()))
        );
        for bad in ["", "file:"] {
            let e = SearchPath::parse(bad).unwrap_err();
            assert_eq!(e.code(), StatusCode::InvalidArgument);
            assert!(e.mentions("empty"), "{e}");
        }
        assert_eq!(SearchPath::parse("file:x").unwrap().as_entry(), "file:x");
        assert_eq!(SearchPath::parse("/d").unwrap().as_entry(), "/d");
    }

    #[cfg(not(windows))]
    #[test]
    fn candidates_follow_iree_order_and_canonicalize() {
        let names = ["liba.so.1", "liba.so"];
        assert_eq!(library_candidates(&[], &names), names);
        let paths = [
            SearchPath::Directory("/path/that/does/not/exist".into()),
            SearchPath::File("nowhere//liba.so".into()),
            SearchPath::Directory("filename_that_does_not_exist.dll".into()),
            SearchPath::Directory("/opt//rocm/lib/".into()),
        ];
        assert_eq!(
            library_candidates(&paths, &names),
            [
                "/path/that/does/not/exist/liba.so.1",
                "/path/that/does/not/exist/liba.so",
                // A file entry is verbatim: not canonicalized.
                "nowhere//liba.so",
                "filename_that_does_not_exist.dll/liba.so.1",
                "filename_that_does_not_exist.dll/liba.so",
                "/opt/rocm/lib/liba.so.1",
                "/opt/rocm/lib/liba.so",
            ]
        );
        assert_eq!(canonicalize("a//b///c"), "a/b/c");
        assert_eq!(canonicalize("//"), "/");
    }
}
