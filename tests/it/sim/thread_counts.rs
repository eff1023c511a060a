//! A kernel's results are the same bits whatever number of threads its
//! work-groups run on (`AMDGPU_SIM_THREADS`): a representative part of the
//! kernel corpus (IREE's matmuls with MFMA and WMMA, a convolution,
//! softmax, reductions, scatter, several dispatches in one program) and of
//! the Triton corpus (matmuls, attention, softmax, a scan, atomics in a
//! histogram) runs on 1, 2 and 4 threads, and every output of every run is
//! compared byte for byte with the one-thread run's. The checkers write
//! the outputs (`scripts/kernels-check.py --outputs`,
//! `scripts/triton-check.py --outputs`); the Triton checker also compares
//! each run with numpy.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::sim::iree_client::{iree, library};
use crate::support::requires::{Package, python_module, requires};

const THREADS: [&str; 3] = ["1", "2", "4"];
const KERNEL_PROGRAMS: &[&str] = &[
    "matmul_f16",
    "batch_matmul",
    "conv2d",
    "softmax",
    "reduce_rows",
    "scatter",
    "multi_dispatch",
];
const KERNEL_PRESETS: &[&str] = &["mi300x-8=gfx942", "w7900=gfx1100"];
const TRITON_CASES: &[&str] = &["matmul_f16", "attention", "softmax", "cumsum", "histogram"];
const TRITON_PRESETS: &[&str] = &["mi300x-8=gfx942", "w7900=gfx1100"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh directory for one thread count's outputs.
fn outputs_dir(suite: &str, threads: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "amdgpu-thread-counts-{suite}-{}-{threads}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("outputs directory");
    dir
}

/// Every file of `dir`, by name.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .expect("outputs directory")
        .map(|entry| {
            let entry = entry.expect("entry");
            let name = entry.file_name().to_string_lossy().into_owned();
            (name, std::fs::read(entry.path()).expect("output file"))
        })
        .collect()
}

/// Runs `command` (a checker, its outputs going to a directory of their
/// own) on each thread count; asserts each run succeeded, that the runs
/// wrote `expected_files` files, and that every file holds the same bytes
/// on every thread count.
fn same_bits_on_every_thread_count(
    suite: &str,
    expected_files: usize,
    command: impl Fn(&Path) -> Command,
) {
    let mut runs = Vec::new();
    for threads in THREADS {
        let dir = outputs_dir(suite, threads);
        let output = command(&dir)
            .env("AMDGPU_SIM_THREADS", threads)
            .env_remove("AMDGPU_SIM_FAULTS")
            .env_remove("AMDGPU_SIM_ON_FAULT")
            .output()
            .expect("python3");
        assert!(
            output.status.success(),
            "{suite}, AMDGPU_SIM_THREADS={threads}:\n{}\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        let written = files(&dir);
        let _ = std::fs::remove_dir_all(&dir);
        assert!(
            written.len() >= expected_files,
            "{suite}, AMDGPU_SIM_THREADS={threads}: {} output files: {:?}",
            written.len(),
            written.keys().collect::<Vec<_>>()
        );
        runs.push((threads, written));
    }
    let (_, one) = &runs[0];
    for (threads, written) in &runs[1..] {
        assert_eq!(
            one.keys().collect::<Vec<_>>(),
            written.keys().collect::<Vec<_>>(),
            "{suite}: the outputs of 1 and {threads} threads"
        );
        for (name, bytes) in one {
            assert!(
                written[name] == *bytes,
                "{suite}: {name} differs between 1 and {threads} threads"
            );
        }
    }
}

#[test]
fn corpus_programs_compute_the_same_bits_on_1_2_and_4_threads() {
    let Some(iree_run_module) = iree("the kernel corpus on several kernel threads") else {
        return;
    };
    let lib = library();
    same_bits_on_every_thread_count(
        "kernels",
        KERNEL_PROGRAMS.len() * KERNEL_PRESETS.len(),
        |dir| {
            let mut command = Command::new("python3");
            command
                .arg(root().join("scripts/kernels-check.py"))
                .arg(&lib)
                .arg("--outputs")
                .arg(dir)
                .arg("--iree-run-module")
                .arg(&iree_run_module);
            for preset in KERNEL_PRESETS {
                command.args(["--preset", preset]);
            }
            for program in KERNEL_PROGRAMS {
                command.args(["--program", program]);
            }
            command
        },
    );
}

#[test]
fn triton_cases_compute_the_same_bits_on_1_2_and_4_threads() {
    let what = "the Triton corpus on several kernel threads";
    if !requires(what, Package::Pip("numpy"), python_module("numpy")) {
        return;
    }
    let lib = library();
    // At least one output per case and preset.
    same_bits_on_every_thread_count("triton", TRITON_CASES.len() * TRITON_PRESETS.len(), |dir| {
        let mut command = Command::new("python3");
        command
            .arg(root().join("scripts/triton-check.py"))
            .arg(&lib)
            .arg("--outputs")
            .arg(dir);
        for preset in TRITON_PRESETS {
            command.args(["--preset", preset]);
        }
        for case in TRITON_CASES {
            command.args(["--case", case]);
        }
        command
    });
}
