//! The skip rule of `tests/it/support/requires.rs`, run in a child process (this
//! test binary again, one ignored test selected): a missing package prints
//! exactly one line on stderr and the test passes; under
//! `AMDGPU_HAL_REQUIRE_ALL=1` the same test fails naming the package.

use crate::support;

use std::process::{Command, Output};

use support::requires::{Package, REQUIRE_ALL, requires};

/// Its name in this binary (`--exact` matches the whole module path).
const CHILD: &str = "inputs::requires_contract::child_needs_a_missing_package";

#[test]
#[ignore = "run by the other tests of this file in a child process"]
fn child_needs_a_missing_package() {
    if !requires(
        "a test of the skip rule",
        Package::Debian("amdgpu-hal-no-such-package"),
        false,
    ) {
        return;
    }
    unreachable!("a missing package is never reported present");
}

fn run_child(require_all: Option<&str>) -> Output {
    let mut command = Command::new(std::env::current_exe().unwrap());
    command.args(["--ignored", "--exact", CHILD, "--test-threads=1"]);
    command.env_remove(REQUIRE_ALL);
    if let Some(value) = require_all {
        command.env(REQUIRE_ALL, value);
    }
    command.output().unwrap()
}

#[test]
fn a_missing_package_prints_one_line_and_passes() {
    for require_all in [None, Some("0"), Some("")] {
        let output = run_child(require_all);
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success(), "{require_all:?}: {stdout}");
        assert!(stdout.contains("1 passed"), "{stdout}");
        assert_eq!(
            String::from_utf8_lossy(&output.stderr),
            "skipped: a test of the skip rule (needs Debian package amdgpu-hal-no-such-package)\n",
            "{require_all:?}"
        );
    }
}

#[test]
fn require_all_turns_the_skip_into_a_failure() {
    let output = run_child(Some("1"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(!output.status.success(), "{stdout}");
    assert!(stdout.contains("1 failed"), "{stdout}");
    assert!(
        stdout.contains(
            "a test of the skip rule needs Debian package amdgpu-hal-no-such-package, which is \
             missing (AMDGPU_HAL_REQUIRE_ALL=1 forbids skipping)"
        ),
        "{stdout}"
    );
    assert!(
        !String::from_utf8_lossy(&output.stderr).contains("skipped:"),
        "no skip line when failing"
    );
}

#[test]
fn pip_packages_are_named_as_such() {
    assert_eq!(
        Package::Pip("iree-base-runtime").to_string(),
        "pip package iree-base-runtime"
    );
    assert_eq!(
        Package::Debian("llvm-19").to_string(),
        "Debian package llvm-19"
    );
}
