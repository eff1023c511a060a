//! Tests that run in a child process of this test binary: a scenario that
//! needs its own environment (another machine, faults, a report, the
//! `/dev/kfd` preload) is an ignored test, run by name in a child.

use std::process::{Command, Output};

/// A command running only the ignored test `name` (`MODULE::TEST`) of this
/// binary, on one thread; the caller adds the environment.
pub(crate) fn command(name: &str) -> Command {
    let mut command = Command::new(std::env::current_exe().expect("test binary path"));
    command.args(["--exact", name, "--ignored", "--test-threads=1"]);
    command
}

/// Asserts that the child ran its one test and passed, showing `context`
/// and the child's output otherwise.
pub(crate) fn assert_passed(output: &Output, context: &str) {
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && stdout.contains("1 passed"),
        "{context}: {stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
}
