//! Finding and opening a vendor library: the search rules shared by HSA,
//! HIP, CUDA, NVML and RCCL/NCCL.
//!
//! The first source that is *given* is the only one used, so an explicit
//! request never silently falls back to some other copy of the library:
//!
//! 1. explicit search paths (options / CLI flags), in order;
//! 2. otherwise the library's environment variable ([`LibrarySpec::env_var`])
//!    when set and non-empty, split on `';'` (IREE's `IREE_HIP_DYLIB_PATH`
//!    convention); an empty segment is `INVALID_ARGUMENT` (IREE would look
//!    at the filesystem root);
//! 3. otherwise the system loader, by each of the library's file names.
//!
//! A search-path entry follows IREE's grammar, implemented once in
//! [`crate::backend::search_paths`]: `file:<path>` is that exact file
//! (prefix stripped); any other entry is a directory in which each of the
//! library's file names is tried (duplicate separators collapsed). Every
//! failed attempt is recorded with the loader's own reason (`dlerror`), and
//! when nothing loads the `UNAVAILABLE` status lists them all in IREE's
//! format (`\n  Tried: <path>\n    <reason>`), then says where the
//! candidates came from.

pub use crate::backend::search_paths::MAX_SEARCH_PATHS;
use crate::backend::search_paths::SearchPath;
use crate::status::Result;

/// How one vendor library is found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LibrarySpec {
    /// Human name used in messages ("HSA/ROCR-Runtime").
    pub display_name: &'static str,
    /// File names tried in each directory and by the system loader, in order.
    pub file_names: &'static [&'static str],
    /// Environment variable holding `;`-separated search paths.
    pub env_var: &'static str,
    /// The `UNAVAILABLE` message when nothing loads (IREE's text where IREE
    /// has one); the tried list follows it.
    pub not_available: &'static str,
    /// IREE's AMDGPU rule for entries ([`SearchPath::parse_amdgpu`]): a path
    /// ending in `.so` is that file even without `file:`.
    pub bare_library_files: bool,
}

/// HSA (ROCR-Runtime): `libhsa-runtime64.so.1` is the SONAME Debian ships.
pub const HSA: LibrarySpec = LibrarySpec {
    display_name: "HSA/ROCR-Runtime",
    file_names: &["libhsa-runtime64.so.1", "libhsa-runtime64.so"],
    env_var: "IREE_HAL_AMDGPU_LIBHSA_PATH",
    not_available: "HSA/ROCR-Runtime library not found; ensure it is installed and on a valid search \
                    path (or specified with IREE_HAL_AMDGPU_LIBHSA_PATH): ",
    bare_library_files: true,
};

/// HIP (CLR/ROCclr): the bare name exists only with `-dev` packages, so the
/// ROCm 6 and ROCm 5 SONAMEs follow it.
pub const HIP: LibrarySpec = LibrarySpec {
    display_name: "HIP runtime",
    file_names: crate::backend::search_paths::HIP_LIBRARY_NAMES,
    env_var: "IREE_HIP_DYLIB_PATH",
    not_available: crate::backend::search_paths::HIP_NOT_AVAILABLE,
    bare_library_files: false,
};

/// The CUDA driver API, which HIP's NVIDIA platform is built on.
pub const CUDA: LibrarySpec = LibrarySpec {
    display_name: "CUDA driver",
    file_names: &["libcuda.so.1", "libcuda.so"],
    env_var: "AMDGPU_HAL_CUDA_PATH",
    not_available: "CUDA driver library 'libcuda.so.1' not available: please ensure the NVIDIA \
                    driver is installed (or name it with AMDGPU_HAL_CUDA_PATH): ",
    bare_library_files: false,
};

/// NVML, the NVIDIA management library `nvidia-smi` is built on: what
/// `devices` and `topology` need of an NVIDIA GPU without `cuInit`.
pub const NVML: LibrarySpec = LibrarySpec {
    display_name: "NVML",
    file_names: &["libnvidia-ml.so.1", "libnvidia-ml.so"],
    env_var: "AMDGPU_HAL_NVML_PATH",
    not_available: "NVIDIA management library 'libnvidia-ml.so.1' not available: please ensure \
                    the NVIDIA driver is installed (or name it with AMDGPU_HAL_NVML_PATH): ",
    bare_library_files: false,
};

/// RCCL, the collective library of the AMD platform.
pub const RCCL: LibrarySpec = LibrarySpec {
    display_name: "RCCL",
    file_names: &["librccl.so", "librccl.so.1"],
    env_var: "AMDGPU_HAL_RCCL_PATH",
    not_available: "RCCL runtime library version 2.18 and greater not available; ensure installed \
                    and the shared library (librccl.so) is on your LD_LIBRARY_PATH \
                    (or name it with AMDGPU_HAL_RCCL_PATH): ",
    bare_library_files: false,
};

/// NCCL, which fills the RCCL slot on the NVIDIA platform.
pub const NCCL: LibrarySpec = LibrarySpec {
    display_name: "NCCL",
    file_names: &["libnccl.so.2", "libnccl.so"],
    env_var: "AMDGPU_HAL_NCCL_PATH",
    not_available: "NCCL runtime library version 2.18 and greater not available; ensure \
                    libnccl.so.2 is on your LD_LIBRARY_PATH (or name it with AMDGPU_HAL_NCCL_PATH): ",
    bare_library_files: false,
};

/// Where a candidate path came from (reported in the tried list).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// An explicit search path.
    Explicit,
    /// The library's environment variable.
    Environment,
    /// The system loader's default search.
    System,
}

/// One path handed to the loader.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// What is passed to `dlopen`.
    pub path: String,
    /// Which rule produced it.
    pub origin: Origin,
}

/// Parses every entry (an empty one is `INVALID_ARGUMENT`, described by
/// `empty`) and expands them by IREE's rules, all tagged with `origin`.
fn expand(
    spec: &LibrarySpec,
    entries: &[&str],
    origin: Origin,
    empty: impl Fn(usize) -> crate::status::Status,
) -> Result<Vec<Candidate>> {
    let mut out = Vec::new();
    for (index, entry) in entries.iter().enumerate() {
        let parsed = if spec.bare_library_files {
            SearchPath::parse_amdgpu(entry)
        } else {
            SearchPath::parse(entry)
        };
        let path = parsed.map_err(|_| empty(index))?;
        out.extend(
            path.candidates(spec.file_names)
                .into_iter()
                .map(|path| Candidate { path, origin }),
        );
    }
    Ok(out)
}

/// The ordered paths to try for `spec`, given explicit search paths and the
/// value of the library's environment variable (passed in so the rules are
/// testable without touching the process environment).
pub fn candidates(
    spec: &LibrarySpec,
    explicit: &[String],
    env_value: Option<&str>,
) -> Result<Vec<Candidate>> {
    if !explicit.is_empty() {
        if explicit.len() > MAX_SEARCH_PATHS {
            return Err(crate::status!(
                InvalidArgument,
                "too many {} search paths ({}; at most {MAX_SEARCH_PATHS})",
                spec.display_name,
                explicit.len()
            ));
        }
        let entries: Vec<&str> = explicit.iter().map(String::as_str).collect();
        return expand(spec, &entries, Origin::Explicit, |_| {
            crate::status!(
                InvalidArgument,
                "empty {} search path entry",
                spec.display_name
            )
        });
    }
    if let Some(value) = env_value.filter(|v| !v.is_empty()) {
        let segments: Vec<&str> = value.split(';').collect();
        if segments.len() > MAX_SEARCH_PATHS {
            return Err(crate::status!(
                InvalidArgument,
                "too many search paths in {} ({}; at most {MAX_SEARCH_PATHS})",
                spec.env_var,
                segments.len()
            ));
        }
        return expand(spec, &segments, Origin::Environment, |at| {
            crate::status!(
                InvalidArgument,
                "empty entry {} in {}={value:?}",
                at + 1,
                spec.env_var
            )
        });
    }
    Ok(spec
        .file_names
        .iter()
        .map(|name| Candidate {
            path: (*name).to_string(),
            origin: Origin::System,
        })
        .collect())
}

/// The loader's full reason for a failure: libloading's `Display` is terse
/// ("dlopen failed"); the `dlerror` text is in its `source()`.
pub(crate) fn loader_error_text(error: &libloading::Error) -> String {
    use std::error::Error as _;
    match error.source() {
        Some(source) => source.to_string(),
        None => error.to_string(),
    }
}

/// An opened vendor library and the path it was opened by.
pub struct DynamicLibrary {
    library: libloading::Library,
    path: String,
    spec: LibrarySpec,
}

impl std::fmt::Debug for DynamicLibrary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DynamicLibrary")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

impl DynamicLibrary {
    /// Opens `spec` by the search rules (module docs), reading the
    /// environment variable named by the spec.
    pub fn open(spec: &LibrarySpec, explicit: &[String]) -> Result<DynamicLibrary> {
        let env_value = std::env::var(spec.env_var).ok();
        DynamicLibrary::open_with_env(spec, explicit, env_value.as_deref())
    }

    /// [`DynamicLibrary::open`] with the environment variable's value given.
    pub fn open_with_env(
        spec: &LibrarySpec,
        explicit: &[String],
        env_value: Option<&str>,
    ) -> Result<DynamicLibrary> {
        let mut tried = String::new();
        let candidates = candidates(spec, explicit, env_value)?;
        let origin = match candidates.first().map(|c| c.origin) {
            Some(Origin::Explicit) => "the search paths given".to_string(),
            Some(Origin::Environment) => spec.env_var.to_string(),
            _ => "the system loader's search".to_string(),
        };
        for candidate in candidates {
            // SAFETY: opening a vendor library runs its ELF initializers. The
            // libraries named by the specs are the vendors' runtimes, whose
            // initializers only set up their own state (measured for Debian's
            // ROCm 5.2: no threads, no output); a user who points the search
            // at another file takes on that file's initializers, as with any
            // dlopen-based loader (IREE's included).
            match unsafe { libloading::Library::new(&candidate.path) } {
                Ok(library) => {
                    return Ok(DynamicLibrary {
                        library,
                        path: candidate.path,
                        spec: *spec,
                    });
                }
                Err(error) => {
                    tried.push_str(&format!(
                        "\n  Tried: {}\n    {}",
                        candidate.path,
                        loader_error_text(&error)
                    ));
                }
            }
        }
        Err(crate::status!(
            Unavailable,
            "{}{tried}\n  (candidates from {origin})",
            spec.not_available
        ))
    }

    /// The path the library was opened by (a bare file name when the system
    /// loader found it).
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The spec the library was found by.
    pub fn spec(&self) -> &LibrarySpec {
        &self.spec
    }

    /// Whether `name` is exported, and the loader's reason when it is not.
    pub(crate) fn probe(&self, name: &str) -> std::result::Result<(), String> {
        // SAFETY: the symbol is only looked up and its address discarded; a
        // `*const c_void` asserts nothing about what it points at.
        match unsafe { self.library.get::<*const std::ffi::c_void>(name.as_bytes()) } {
            Ok(_) => Ok(()),
            Err(error) => Err(loader_error_text(&error)),
        }
    }

    /// Checks that every name in `names` is exported: `UNAVAILABLE` naming
    /// each missing one (all of them, not just the first).
    pub(crate) fn require_all(&self, names: &[&str]) -> Result<()> {
        let missing: Vec<&str> = names
            .iter()
            .copied()
            .filter(|name| self.probe(name).is_err())
            .collect();
        if missing.is_empty() {
            return Ok(());
        }
        let detail = missing
            .first()
            .and_then(|first| self.probe(first).err())
            .unwrap_or_default();
        Err(crate::status!(
            Unavailable,
            "{} library '{}' lacks required symbol{} {}: {detail}",
            self.spec.display_name,
            self.path,
            if missing.len() == 1 { "" } else { "s" },
            missing
                .iter()
                .map(|m| format!("'{m}'"))
                .collect::<Vec<_>>()
                .join(", ")
        ))
    }

    /// Resolves `name` as a `T`.
    ///
    /// # Safety
    /// `T` must be the exact `extern "C"` function-pointer type of the C
    /// declaration of `name`, and the value must not be called after this
    /// library is dropped.
    pub(crate) unsafe fn symbol<T: Copy>(&self, name: &str) -> Option<T> {
        // SAFETY: forwarded to the caller (see above).
        unsafe { self.library.get::<T>(name.as_bytes()) }
            .ok()
            .map(|symbol| *symbol)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(c: &[Candidate]) -> Vec<&str> {
        c.iter().map(|c| c.path.as_str()).collect()
    }

    #[test]
    fn system_names_when_nothing_is_given() {
        let c = candidates(&HIP, &[], None).unwrap();
        assert_eq!(
            paths(&c),
            ["libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.5"]
        );
        assert!(c.iter().all(|c| c.origin == Origin::System));
    }

    #[test]
    fn explicit_paths_win_and_are_exclusive() {
        let explicit = vec![
            "/opt/rocm//lib/".to_string(),
            "file:rel/libx.so".to_string(),
            // Only `file:` makes a file (IREE's rule): this is a directory.
            "/a/libhsa.so.1".to_string(),
            "file:/b//libhsa.so.1".to_string(),
        ];
        let c = candidates(&HSA, &explicit, Some("/env")).unwrap();
        assert_eq!(
            paths(&c),
            [
                "/opt/rocm/lib/libhsa-runtime64.so.1",
                "/opt/rocm/lib/libhsa-runtime64.so",
                "rel/libx.so",
                "/a/libhsa.so.1/libhsa-runtime64.so.1",
                "/a/libhsa.so.1/libhsa-runtime64.so",
                "/b//libhsa.so.1"
            ]
        );
        assert!(c.iter().all(|c| c.origin == Origin::Explicit));
    }

    #[test]
    fn hsa_entries_ending_in_so_are_files_as_in_iree_amdgpu() {
        // IREE's AMDGPU driver: `.so` names the file, anything else (a
        // SONAME `.so.1` included) is a directory.
        let c = candidates(
            &HSA,
            &[],
            Some("/opt/x/libsim.so;/opt/rocm/lib;file:/y/lib.so.1"),
        )
        .unwrap();
        assert_eq!(
            paths(&c),
            [
                "/opt/x/libsim.so",
                "/opt/rocm/lib/libhsa-runtime64.so.1",
                "/opt/rocm/lib/libhsa-runtime64.so",
                "/y/lib.so.1"
            ]
        );
        // IREE's HIP driver has no such rule.
        let c = candidates(&HIP, &[], Some("/opt/x/libsim.so")).unwrap();
        assert_eq!(c[0].path, "/opt/x/libsim.so/libamdhip64.so");
    }

    #[test]
    fn environment_is_split_on_semicolons_and_rejects_empty_segments() {
        let c = candidates(&NCCL, &[], Some("/x;file:/y/libnccl.so.2")).unwrap();
        assert_eq!(
            paths(&c),
            ["/x/libnccl.so.2", "/x/libnccl.so", "/y/libnccl.so.2"]
        );
        assert!(c.iter().all(|c| c.origin == Origin::Environment));
        for bad in ["/x;;/y", "/x;", ";/x", "file:"] {
            let e = candidates(&NCCL, &[], Some(bad)).unwrap_err();
            assert_eq!(e.code(), crate::StatusCode::InvalidArgument, "{bad}");
            assert!(
                e.mentions("empty entry") && e.mentions("AMDGPU_HAL_NCCL_PATH"),
                "{e}"
            );
        }
        // An empty value is the same as unset: the system loader.
        let c = candidates(&NCCL, &[], Some("")).unwrap();
        assert_eq!(c[0].origin, Origin::System);
    }

    #[test]
    fn empty_and_excessive_entries_are_rejected() {
        for bad in ["", "file:"] {
            let e = candidates(&HIP, &[bad.to_string()], None).unwrap_err();
            assert_eq!(e.code(), crate::StatusCode::InvalidArgument);
            assert!(e.mentions("empty HIP runtime search path entry"), "{e}");
        }
        let many = vec!["/d".to_string(); MAX_SEARCH_PATHS + 1];
        let e = candidates(&HIP, &many, None).unwrap_err();
        assert!(e.mentions("too many HIP runtime search paths"), "{e}");
    }
}
