//! Kernels compute what IREE's CPU backend computes: every program of
//! `fixtures/kernels/` (34 MLIR programs across float and integer
//! element-wise ops of every width, conversions, reductions, matmuls with
//! MFMA and WMMA, convolution, softmax, scatter and gather, dynamic shapes)
//! runs through IREE's own `iree-run-module` on the simulated node —
//! mi300x-8 with the gfx942 modules, mi250x-4 with gfx90a, w7900 with
//! gfx1100, r9700-4 with gfx1201, mi355x-8 with gfx950 — and returns the CPU oracle's outputs (`expected/`, made by
//! `fixtures/kernels/build.sh` with `--device=local-task`), under each
//! program's declared tolerance. `scripts/kernels-check.py` does the runs
//! and the comparison; its `--cpu` mode checks the corpus and the
//! comparator against the CPU modules themselves.

use crate::sim::iree_client::{iree, library};

use std::path::{Path, PathBuf};
use std::process::Command;

const PRESETS: &[&str] = &[
    "mi300x-8=gfx942",
    "mi250x-4=gfx90a",
    "w7900=gfx1100",
    "r9700-4=gfx1201",
    "mi355x-8=gfx950",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs the checker; its table when every run passed.
fn check(args: &[&str], iree_run_module: &Path) -> String {
    let output = Command::new("python3")
        .arg(root().join("scripts/kernels-check.py"))
        .args(args)
        .args(["--iree-run-module", &iree_run_module.display().to_string()])
        .output()
        .expect("python3");
    let table = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "kernels-check.py {args:?}:\n{table}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    table
}

#[test]
fn every_corpus_program_returns_the_cpu_results_on_each_chip() {
    let Some(iree_run_module) = iree("the kernel corpus on the simulated node") else {
        return;
    };
    let lib = library().display().to_string();
    let mut args = vec![lib.as_str()];
    for preset in PRESETS {
        args.extend(["--preset", preset]);
    }
    let table = check(&args, &iree_run_module);
    let programs = std::fs::read_dir(root().join("fixtures/kernels/src"))
        .unwrap()
        .count();
    assert!(programs >= 24, "only {programs} programs");
    assert!(
        table.contains(&format!("{n} runs: {n} pass", n = programs * PRESETS.len())),
        "{table}"
    );
}

#[test]
fn the_corpus_and_its_comparator_agree_with_the_cpu_modules() {
    let Some(iree_run_module) = iree("the kernel corpus's CPU self-check") else {
        return;
    };
    let table = check(&["--cpu"], &iree_run_module);
    assert!(table.contains(" pass"), "{table}");
}
