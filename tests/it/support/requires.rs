//! Tests that need a system or Python package (the ROCm libraries,
//! llvm-readelf-19, a C compiler, ...) call [`requires`]: when the package is
//! missing the test prints one line saying what it skips and which package
//! brings it, and returns; with `AMDGPU_HAL_REQUIRE_ALL=1` (CI sets it) the
//! same absence fails the test instead, so CI still proves every such test.

use std::fmt;
use std::io::Write;
use std::process::{Command, Stdio};

/// The environment variable that turns every skip into a failure when it is
/// exactly `1`.
pub const REQUIRE_ALL: &str = "AMDGPU_HAL_REQUIRE_ALL";

/// Where a missing dependency comes from.
#[derive(Clone, Copy, Debug)]
pub enum Package {
    /// A Debian 12 package (`apt-get install NAME`).
    Debian(&'static str),
    /// A Python package (`pip install NAME`).
    Pip(&'static str),
    /// Source code a test builds, and where it is looked for.
    Source(&'static str),
}

impl fmt::Display for Package {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Package::Debian(name) => write!(f, "Debian package {name}"),
            Package::Pip(name) => write!(f, "pip package {name}"),
            Package::Source(name) => write!(f, "{name}"),
        }
    }
}

/// Whether `AMDGPU_HAL_REQUIRE_ALL=1` is set.
pub fn require_all() -> bool {
    std::env::var_os(REQUIRE_ALL).is_some_and(|value| value == "1")
}

/// `true` when `present`. Otherwise prints `skipped: WHAT (needs PACKAGE)`
/// and returns `false`, or panics when `AMDGPU_HAL_REQUIRE_ALL=1`.
pub fn requires(what: &str, package: Package, present: bool) -> bool {
    if present {
        return true;
    }
    if require_all() {
        panic!("{what} needs {package}, which is missing ({REQUIRE_ALL}=1 forbids skipping)");
    }
    // Straight to the process's stderr: the test harness captures `eprintln!`
    // of passing tests, and a skip must show in a passing run.
    let line = format!("skipped: {what} (needs {package})\n");
    let _ = std::io::stderr().lock().write_all(line.as_bytes());
    false
}

/// Whether `program --version` runs and succeeds (the program is on `PATH`).
pub fn program(name: &str) -> bool {
    Command::new(name)
        .arg("--version")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success())
}

/// Whether `python3 -c "import MODULE"` succeeds.
pub fn python_module(module: &str) -> bool {
    Command::new("python3")
        .args(["-c", &format!("import {module}")])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success())
}

/// Whether the real backend finds `spec`'s library through the system's
/// dynamic loader alone (no search path, no environment variable).
#[cfg(feature = "real")]
pub fn library(spec: &amdgpu_hal::backend::dylib::library::LibrarySpec) -> bool {
    amdgpu_hal::backend::dylib::library::DynamicLibrary::open_with_env(spec, &[], None).is_ok()
}

/// `llvm-readelf-19`, the oracle of the code-object tests, if installed.
pub fn llvm_readelf(what: &str) -> Option<&'static str> {
    const TOOL: &str = "llvm-readelf-19";
    requires(what, Package::Debian("llvm-19"), program(TOOL)).then_some(TOOL)
}

/// The C compiler (`$CC`, else `cc`) that builds the fake vendor libraries.
pub fn c_compiler(what: &str) -> Option<String> {
    let compiler = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
    requires(what, Package::Debian("gcc"), program(&compiler)).then_some(compiler)
}

/// Debian's `libhsa-runtime64.so.1` (ROCm 5.2), found by the system loader.
#[cfg(feature = "real")]
pub fn hsa_runtime(what: &str) -> bool {
    requires(
        what,
        Package::Debian("libhsa-runtime64-1"),
        library(&amdgpu_hal::backend::dylib::library::HSA),
    )
}

/// Debian's `libamdhip64.so.5` (HIP 5.2), found by the system loader.
#[cfg(feature = "real")]
pub fn hip_runtime(what: &str) -> bool {
    requires(
        what,
        Package::Debian("libamdhip64-5"),
        library(&amdgpu_hal::backend::dylib::library::HIP),
    )
}
