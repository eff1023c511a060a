//! The skip rule of the workspace's tests (as the root crate's
//! `tests/it/support/requires.rs` has it), for the tests here that need a
//! program: when it is missing the test prints one line saying what it
//! skips and which package brings it, and returns; with
//! `AMDGPU_HAL_REQUIRE_ALL=1` (CI sets it) the same absence fails the test.

#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Stdio};

/// The environment variable that turns every skip into a failure when it is
/// exactly `1`.
pub const REQUIRE_ALL: &str = "AMDGPU_HAL_REQUIRE_ALL";

/// `true` when `present`. Otherwise prints `skipped: WHAT (needs Debian
/// package PACKAGE)` and returns `false`, or panics when
/// `AMDGPU_HAL_REQUIRE_ALL=1`.
pub fn requires(what: &str, package: &str, present: bool) -> bool {
    if present {
        return true;
    }
    if std::env::var_os(REQUIRE_ALL).is_some_and(|value| value == "1") {
        panic!(
            "{what} needs Debian package {package}, which is missing ({REQUIRE_ALL}=1 forbids \
             skipping)"
        );
    }
    // Straight to the process's stderr: the test harness captures `eprintln!`
    // of passing tests, and a skip must show in a passing run.
    let line = format!("skipped: {what} (needs Debian package {package})\n");
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
