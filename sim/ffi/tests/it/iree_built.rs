//! IREE's AMDGPU driver tests as `scripts/iree-cts/build.sh` builds them in
//! `target/iree-cts` (the root crate's `sim::iree_build` runs it), and the
//! C library laid out for them: shared by the suites that run one.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::rocminfo::skip;

/// IREE's driver test at `relative` (under `runtime/src/iree/hal/drivers/amdgpu/`
/// of the build), or `None` after the skip line naming `what`.
pub(crate) fn iree_amdgpu_test(relative: &str, what: &str) -> Option<PathBuf> {
    let test = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../target/iree-cts/build/runtime/src/iree/hal/drivers/amdgpu")
        .join(relative);
    if test.is_file() {
        return Some(test);
    }
    skip(
        what,
        "needs IREE's AMDGPU driver tests built in target/iree-cts \
         (scripts/iree-cts/build.sh, which the root crate's sim::iree_build runs)",
    );
    None
}

/// IREE's tool `name` (`iree-run-module`) of the same build, or `None`
/// after the skip line naming `what`.
pub(crate) fn iree_tool(name: &str, what: &str) -> Option<PathBuf> {
    let tool = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../target/iree-cts/build/tools")
        .join(name);
    if tool.is_file() {
        return Some(tool);
    }
    skip(
        what,
        "needs IREE's tools built in target/iree-cts \
         (scripts/iree-cts/build.sh, which the root crate's sim::iree_build runs)",
    );
    None
}

/// A directory named `name` (under Cargo's test temporary directory)
/// holding this build's C library under the vendor names and the
/// `/dev/kfd` stand-in, as `scripts/sim-libs.sh` lays them out.
pub(crate) fn sim_lib_dir(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    let library = exe.parent().expect("deps dir").join("libamdgpu_sim_ffi.so");
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let linked =
        Command::new(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/sim-libs.sh"))
            .arg(format!("--lib={}", library.display()))
            .arg(&out)
            .output()
            .expect("run scripts/sim-libs.sh");
    assert!(
        linked.status.success(),
        "{}",
        String::from_utf8_lossy(&linked.stderr)
    );
    out
}
