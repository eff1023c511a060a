//! IREE's own tests and tools built from source, once per test run, for the
//! suites that run them on the simulated node (`iree_cts`, `iree_amdgpu`,
//! `iree_seed_port`): `scripts/iree-cts/build.sh` into `target/iree-cts`.
//!
//! The source: `IREE_SOURCE_DIR` (a checkout with submodules), else
//! `../shared/iree/iree-b48a5955-src.tar.gz`. The tools: cmake, ninja and
//! iree-compile from pip, clang-19 from Debian; without one of them (or the
//! source) a suite prints one line and passes, unless
//! `AMDGPU_HAL_REQUIRE_ALL=1`.

use crate::support;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use support::requires::{Package, program, requires};

pub(crate) fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The IREE source the harness builds, if there is one.
fn source() -> Option<(&'static str, PathBuf)> {
    if let Some(dir) = std::env::var_os("IREE_SOURCE_DIR") {
        return Some(("IREE_SOURCE_DIR", PathBuf::from(dir)));
    }
    let tarball = root().join("../shared/iree/iree-b48a5955-src.tar.gz");
    tarball
        .is_file()
        .then_some(("IREE_SOURCE_TARBALL", tarball))
}

/// A library Cargo builds next to this test binary.
fn built_library(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    let so = exe.parent().expect("deps dir").join(name);
    assert!(so.is_file(), "{} is not built", so.display());
    so
}

/// The C library, as Cargo builds it for this test binary.
pub(crate) fn library() -> PathBuf {
    built_library("libamdgpu_sim_ffi.so")
}

/// A directory holding the C library as `libhsa-runtime64.so.1` (what
/// `IREE_HAL_AMDGPU_LIBHSA_PATH` names) and the `/dev/kfd` stand-in, as
/// `scripts/sim-libs.sh` lays them out; laid out once per test binary, as
/// suites running at the same time ask for it.
pub(crate) fn hsa_library_dir() -> PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = root().join("target/iree-cts/sim-lib-test");
        std::fs::create_dir_all(&dir).unwrap();
        for (name, target) in [
            ("libhsa-runtime64.so.1", library()),
            (
                "libamdgpu_sim_kfd.so",
                built_library("libamdgpu_sim_kfd.so"),
            ),
        ] {
            let link = dir.join(name);
            let _ = std::fs::remove_file(&link);
            std::os::unix::fs::symlink(target, &link).unwrap();
        }
        dir
    })
    .clone()
}

/// Whether everything the harness needs is here; prints the skip line
/// naming `what` when not.
fn prerequisites(what: &str) -> Option<(&'static str, PathBuf)> {
    let tools = [
        ("iree-compile", Package::Pip("iree-base-compiler==3.13.0")),
        ("cmake", Package::Pip("cmake")),
        ("ninja", Package::Pip("ninja")),
        ("clang-19", Package::Debian("clang-19")),
        ("clang++-19", Package::Debian("clang-19")),
    ];
    for (tool, package) in tools {
        if !requires(what, package, program(tool)) {
            return None;
        }
    }
    let found = source();
    let where_ = Package::Source(
        "IREE's source: IREE_SOURCE_DIR, or ../shared/iree/iree-b48a5955-src.tar.gz",
    );
    requires(what, where_, found.is_some()).then_some(())?;
    found
}

/// `target/iree-cts` with IREE's tests built, or `None` after the skip
/// line naming `what`. The build runs once per test binary; suites asking
/// at the same time wait for it.
pub(crate) fn built(what: &str) -> Option<PathBuf> {
    let (variable, source) = prerequisites(what)?;
    static BUILD: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    let result = BUILD.get_or_init(|| {
        let work = root().join("target/iree-cts");
        let output = Command::new(root().join("scripts/iree-cts/build.sh"))
            .arg(&work)
            .env(variable, &source)
            .output()
            .map_err(|e| format!("scripts/iree-cts/build.sh: {e}"))?;
        if !output.status.success() {
            return Err(format!(
                "scripts/iree-cts/build.sh failed: {}\n{}\n{}",
                output.status,
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            ));
        }
        Ok(work)
    });
    match result {
        Ok(work) => Some(work.clone()),
        Err(message) => panic!("{message}"),
    }
}

/// Runs `command`, which must succeed; its stdout.
pub(crate) fn run(command: &mut Command, what: &str) -> String {
    let output = command.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{what} failed: {}\n{stdout}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

/// `results.json` of a harness run, parsed.
pub(crate) fn results(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}
