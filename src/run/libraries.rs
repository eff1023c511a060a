//! Where the simulated node's C library is found from the CLI.
//!
//! `cargo install` installs binaries only, so the two shared libraries a
//! run needs — the node (`libamdgpu_sim_ffi.so`, crate `amdgpu-sim-ffi`)
//! and the `/dev/kfd` stand-in (`libamdgpu_sim_kfd.so`, crate
//! `amdgpu-sim-kfd`) — are looked for, both in one directory, in this
//! order (the first directory holding both wins):
//!
//! 1. `$AMDGPU_SIM_LIB_DIR`, when set: then only there (a directory named
//!    on purpose that lacks them is a mistake to report, not to look past);
//! 2. the directory of the running `amdgpu-hal` (a `target/<profile>/`
//!    directory after `cargo build`, or an install prefix's `bin/` the
//!    libraries were copied into);
//! 3. `../lib/amdgpu-hal/` beside it (an install prefix's `lib/`, where
//!    the repository's CI action puts them);
//! 4. the cargo target directories of the checkout the binary was built
//!    from (`$CARGO_TARGET_DIR` as it was at build time, then the
//!    checkout's `target/`), release before debug.
//!
//! A directory `scripts/sim-libs.sh` made (the vendor names linked to the
//! C library, the stand-in beside them; what `scripts/sim-rocminfo.sh`
//! takes as `AMDGPU_SIM_LIB_DIR`) counts too: its `libhsa-runtime64.so.1`
//! is the node when it resolves to `libamdgpu_sim_ffi.so`.
//!
//! Nothing is built: when no directory has both, the error is one line
//! naming the files, the places looked at and the command that builds
//! them ([`BUILD_COMMAND`]).

use std::path::{Path, PathBuf};

use crate::status::{Result, Status};

/// Environment variable naming the directory that holds both libraries.
pub const LIB_DIR_ENV: &str = "AMDGPU_SIM_LIB_DIR";
/// The simulated node's C library (crate `amdgpu-sim-ffi`).
pub const NODE_LIBRARY: &str = "libamdgpu_sim_ffi.so";
/// The `/dev/kfd` stand-in (crate `amdgpu-sim-kfd`).
pub const KFD_STAND_IN: &str = "libamdgpu_sim_kfd.so";
/// The command, run in amdgpu-hal's checkout, that builds both libraries
/// into `target/release/`.
pub const BUILD_COMMAND: &str = "cargo build --release -p amdgpu-sim-ffi -p amdgpu-sim-kfd";
/// Where an install prefix keeps them, relative to its `bin/`.
pub const PREFIX_LIB_DIR: &str = "../lib/amdgpu-hal";

/// The two libraries a run needs, found in one directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeLibraries {
    /// `libamdgpu_sim_ffi.so`.
    pub node: PathBuf,
    /// `libamdgpu_sim_kfd.so`.
    pub kfd: PathBuf,
}

/// The places [`find`] looks at.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchPlaces {
    /// `$AMDGPU_SIM_LIB_DIR`, when set (and not empty).
    pub named: Option<PathBuf>,
    /// The running executable.
    pub executable: Option<PathBuf>,
    /// The cargo target directories of the checkout the binary was built
    /// from (each holding `release/` and `debug/`).
    pub target_dirs: Vec<PathBuf>,
}

impl SearchPlaces {
    /// The places of this process: [`LIB_DIR_ENV`], the running
    /// executable, and this crate's checkout as it was when compiled.
    pub fn of_process() -> SearchPlaces {
        let mut target_dirs = Vec::new();
        // A target directory exported at build time (`option_env!` reads
        // the compiler's environment, which cargo's is).
        if let Some(dir) = option_env!("CARGO_TARGET_DIR") {
            let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
            target_dirs.push(dir);
        }
        target_dirs.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("target"));
        SearchPlaces {
            named: std::env::var_os(LIB_DIR_ENV)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from),
            executable: std::env::current_exe().ok(),
            target_dirs,
        }
    }

    /// The directories looked at, in order.
    pub fn directories(&self) -> Vec<PathBuf> {
        if let Some(named) = &self.named {
            return vec![named.clone()];
        }
        let mut dirs = Vec::new();
        if let Some(dir) = self.executable.as_deref().and_then(Path::parent) {
            dirs.push(dir.to_path_buf());
            dirs.push(dir.join(PREFIX_LIB_DIR));
        }
        for target in &self.target_dirs {
            for profile in ["release", "debug"] {
                dirs.push(target.join(profile));
            }
        }
        dirs
    }
}

/// The name `scripts/sim-libs.sh` links to the C library that
/// [`node_library_in`] follows.
const LINKED_NAME: &str = "libhsa-runtime64.so.1";

/// The C library in `dir`: [`NODE_LIBRARY`], else a [`LINKED_NAME`] link
/// that resolves to a file of that name.
fn node_library_in(dir: &Path) -> Option<PathBuf> {
    let direct = dir.join(NODE_LIBRARY);
    if direct.is_file() {
        // Absolute: the links made to it live in another directory, and
        // the program may change its own.
        return std::path::absolute(direct).ok();
    }
    let target = std::fs::canonicalize(dir.join(LINKED_NAME)).ok()?;
    (target.is_file() && target.file_name() == Some(std::ffi::OsStr::new(NODE_LIBRARY)))
        .then_some(target)
}

/// The first directory of `places` holding both libraries; else one line
/// saying what is missing and how to build it (`NOT_FOUND`).
pub fn find(places: &SearchPlaces) -> Result<NodeLibraries> {
    let dirs = places.directories();
    for dir in &dirs {
        let kfd = dir.join(KFD_STAND_IN);
        if let Some(node) = node_library_in(dir).filter(|_| kfd.is_file()) {
            let kfd = std::path::absolute(&kfd).unwrap_or(kfd);
            return Ok(NodeLibraries { node, kfd });
        }
    }
    let looked: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
    let where_ = match &places.named {
        Some(_) => format!("in {LIB_DIR_ENV}={}", looked.join(", ")),
        None => format!("in {}", looked.join(", ")),
    };
    Err(Status::not_found(format!(
        "the simulated node's C library is not installed: no {NODE_LIBRARY} with \
         {KFD_STAND_IN} beside it {where_}; build them in amdgpu-hal's checkout with \
         `{BUILD_COMMAND}` and copy both from target/release/ beside the amdgpu-hal \
         binary, into {PREFIX_LIB_DIR}/ beside it, or into a directory named by {LIB_DIR_ENV}"
    )))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn touch(path: &Path) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, b"").unwrap();
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "amdgpu-hal-libraries-{name}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn an_install_prefix_lib_dir_is_found_and_a_half_install_is_not() {
        let prefix = scratch("prefix");
        let places = SearchPlaces {
            named: None,
            executable: Some(prefix.join("bin/amdgpu-hal")),
            target_dirs: vec![prefix.join("checkout/target")],
        };
        // Only the node library beside the binary: not enough.
        touch(&prefix.join("bin").join(NODE_LIBRARY));
        let lib = prefix.join("lib/amdgpu-hal");
        touch(&lib.join(NODE_LIBRARY));
        touch(&lib.join(KFD_STAND_IN));
        let found = find(&places).unwrap();
        assert_eq!(
            found.node,
            prefix.join("bin/../lib/amdgpu-hal").join(NODE_LIBRARY)
        );
        assert_eq!(
            found.kfd,
            prefix.join("bin/../lib/amdgpu-hal").join(KFD_STAND_IN)
        );
        // A checkout's release build comes before its debug build.
        let target = prefix.join("checkout/target");
        for profile in ["debug", "release"] {
            touch(&target.join(profile).join(NODE_LIBRARY));
            touch(&target.join(profile).join(KFD_STAND_IN));
        }
        std::fs::remove_dir_all(&lib).unwrap();
        assert_eq!(
            find(&places).unwrap().node,
            target.join("release").join(NODE_LIBRARY)
        );
        std::fs::remove_dir_all(&prefix).unwrap();
    }

    #[test]
    fn a_directory_of_vendor_names_is_followed_to_the_library() {
        let dir = scratch("vendor-names");
        let built = dir.join("target/debug");
        touch(&built.join(NODE_LIBRARY));
        touch(&built.join(KFD_STAND_IN));
        let links = dir.join("sim-lib");
        std::fs::create_dir_all(&links).unwrap();
        std::os::unix::fs::symlink(built.join(NODE_LIBRARY), links.join(LINKED_NAME)).unwrap();
        std::os::unix::fs::symlink(built.join(KFD_STAND_IN), links.join(KFD_STAND_IN)).unwrap();
        let places = SearchPlaces {
            named: Some(links.clone()),
            ..SearchPlaces::default()
        };
        let found = find(&places).unwrap();
        assert_eq!(found.node, built.join(NODE_LIBRARY).canonicalize().unwrap());
        assert_eq!(found.kfd, links.join(KFD_STAND_IN));
        // A link to another library (the real ROCr) is not the node.
        std::fs::remove_file(links.join(LINKED_NAME)).unwrap();
        touch(&dir.join("rocm/libhsa-runtime64.so.1.5.0"));
        std::os::unix::fs::symlink(
            dir.join("rocm/libhsa-runtime64.so.1.5.0"),
            links.join(LINKED_NAME),
        )
        .unwrap();
        assert!(find(&places).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A relative directory (`AMDGPU_SIM_LIB_DIR=target/release`) gives
    /// absolute paths: the vendor-name links live elsewhere.
    #[test]
    fn a_relative_directory_gives_absolute_paths() {
        let dir = scratch("relative");
        touch(&dir.join(NODE_LIBRARY));
        touch(&dir.join(KFD_STAND_IN));
        let cwd = std::env::current_dir().unwrap();
        let relative = pathdiff(&dir, &cwd);
        assert!(relative.is_relative(), "{}", relative.display());
        let places = SearchPlaces {
            named: Some(relative),
            ..SearchPlaces::default()
        };
        let found = find(&places).unwrap();
        assert!(
            found.node.is_absolute() && found.node.is_file(),
            "{found:?}"
        );
        assert!(found.kfd.is_absolute() && found.kfd.is_file(), "{found:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// `path` relative to `base` (both absolute), through `..` as needed.
    fn pathdiff(path: &Path, base: &Path) -> PathBuf {
        let (path, base): (Vec<_>, Vec<_>) =
            (path.components().collect(), base.components().collect());
        let common = path.iter().zip(&base).take_while(|(a, b)| a == b).count();
        let mut out = PathBuf::new();
        for _ in common..base.len() {
            out.push("..");
        }
        out.extend(&path[common..]);
        out
    }

    #[test]
    fn a_named_directory_is_the_only_place_looked_at() {
        let dir = scratch("named");
        let places = SearchPlaces {
            named: Some(dir.join("empty")),
            executable: Some(dir.join("bin/amdgpu-hal")),
            target_dirs: vec![],
        };
        touch(&dir.join("bin").join(NODE_LIBRARY));
        touch(&dir.join("bin").join(KFD_STAND_IN));
        let error = find(&places).unwrap_err();
        assert_eq!(error.code(), crate::status::StatusCode::NotFound);
        let message = error.message();
        assert!(message.contains(&format!("{LIB_DIR_ENV}={}", dir.join("empty").display())));
        assert!(message.contains(BUILD_COMMAND), "{message}");
        assert!(!message.contains('\n'), "{message}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
