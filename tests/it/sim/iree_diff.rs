//! The differential program generator's smoke (docs/IREE-DIFF.md): random
//! IREE programs from seeds 0..19, each compiled by pip's `iree-compile`
//! 3.13 for gfx942, gfx90a, gfx1100 and llvm-cpu, run on the simulated node
//! through IREE's `iree-run-module` and on `local-task`, must agree, but for
//! the classes `scripts/iree-diff/known.json` explains. The long campaigns
//! run in the documented command. The compiled modules are kept by content
//! hash in `target/iree-diff/cache` (run.py's own cache), so a rerun
//! compiles nothing that did not change: compiling the 4 modules (the 20
//! programs batched into one per target) is about
//! 31 s of CPU, their runs about 2 s (docs/PERFORMANCE.md, "CI's IREE
//! budget").
//!
//! Needs IREE's compiler and runtime from PyPI; without them the test
//! prints one line and passes, unless `AMDGPU_HAL_REQUIRE_ALL=1`.

use std::process::Command;

use crate::sim::iree_client::{iree, library};
use crate::support::requires::{Package, program, requires};

#[test]
fn twenty_random_programs_agree_with_the_cpu_on_every_chip() {
    let what = "the program generator's smoke";
    let Some(iree_run_module) = iree(what) else {
        return;
    };
    let compiler = Package::Pip("iree-base-compiler==3.13.0");
    if !requires(what, compiler, program("iree-compile")) {
        return;
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let work = std::env::temp_dir().join(format!("amdgpu-iree-diff-{}", std::process::id()));
    let output = Command::new("python3")
        .arg(root.join("scripts/iree-diff/run.py"))
        .args(["--seeds", "0..19"])
        .args(["--lib", &library().display().to_string()])
        .args([
            "--cache",
            &root.join("target/iree-diff/cache").display().to_string(),
        ])
        .args(["--keep", &work.join("keep").display().to_string()])
        .args(["--iree-run-module", &iree_run_module.display().to_string()])
        .env_remove("AMDGPU_SIM_FAULTS")
        .env_remove("AMDGPU_SIM_ON_FAULT")
        .output()
        .expect("python3");
    let _ = std::fs::remove_dir_all(&work);
    let table = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "scripts/iree-diff/run.py --seeds 0..19:\n{table}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    for chip in ["gfx942", "gfx90a", "gfx1100"] {
        let row = table
            .lines()
            .find(|l| l.starts_with(chip))
            .unwrap_or_else(|| panic!("no row for {chip}:\n{table}"));
        let fields: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(fields.get(1), Some(&"20"), "{row}");
    }
}

/// The generator's third opinion (`scripts/iree-diff/evaluate.py`), which
/// tells a denormal the CPU flushed on the way to a result from a wrong
/// value, against values worked out by hand (`evaluate_test.py`).
#[test]
fn the_element_wise_evaluator_computes_ieee_results_worked_out_by_hand() {
    let what = "the program generator's evaluator";
    if !requires(what, Package::Debian("python3"), program("python3")) {
        return;
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let output = Command::new("python3")
        .arg(root.join("scripts/iree-diff/evaluate_test.py"))
        .output()
        .expect("python3");
    assert!(
        output.status.success(),
        "scripts/iree-diff/evaluate_test.py:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}
