//! A kernel's results are the same bits whatever number of threads its
//! work-groups run on (`AMDGPU_SIM_THREADS`): every program of the kernel
//! corpus (`fixtures/kernels`) on every preset it is built for, and a
//! representative part of the Triton corpus (matmuls, attention, softmax,
//! a scan, atomics in a histogram), runs on 1, 2 and 4 threads, and every
//! output of every run is compared byte for byte with the one-thread run's.
//! The checkers write the outputs (`scripts/kernels-check.py --outputs`,
//! `scripts/triton-check.py --outputs`); the Triton checker also compares
//! each run with numpy.
//!
//! IREE's e2e suites compare with tolerances, so for them the report's
//! digest of what the client read back is compared instead
//! (`scripts/iree-e2e/threads-identical.py`, run by `iree_e2e`); the last
//! test here shows that digest follows a kernel's result bit for bit.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::sim::iree_client::{iree, library};
use crate::support::requires::{Package, python_module, requires};

const THREADS: [&str; 3] = ["1", "2", "4"];
/// Every preset the corpus is built for (`fixtures/kernels/vmfb`).
const KERNEL_PRESETS: &[&str] = &[
    "mi300x-8=gfx942",
    "mi250x-4=gfx90a",
    "w7900=gfx1100",
    "r9700-4=gfx1201",
    "mi355x-8=gfx950",
];
const TRITON_CASES: &[&str] = &["matmul_f16", "attention", "softmax", "cumsum", "histogram"];
const TRITON_PRESETS: &[&str] = &["mi300x-8=gfx942", "w7900=gfx1100"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The corpus's programs: every `src/NAME.mlir`.
fn kernel_programs() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(root().join("fixtures/kernels/src"))
        .expect("fixtures/kernels/src")
        .filter_map(|entry| {
            let name = entry.expect("entry").file_name().into_string().ok()?;
            Some(name.strip_suffix(".mlir")?.to_string())
        })
        .collect();
    names.sort();
    names
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
fn every_corpus_program_computes_the_same_bits_on_1_2_and_4_threads() {
    let Some(iree_run_module) = iree("the kernel corpus on several kernel threads") else {
        return;
    };
    let lib = library();
    let programs = kernel_programs();
    assert!(programs.len() >= 30, "{programs:?}");
    // Each program writes one file per result and preset: at least one.
    same_bits_on_every_thread_count("kernels", programs.len() * KERNEL_PRESETS.len(), |dir| {
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
        command
    });
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

/// The report's `read_back_*` lines of one `iree-run-module` run of
/// `fixtures/iree`'s f32 matmul (128×256 by 256×64, several work-groups)
/// on mi300x-8 (gfx942 code): `(copies, bytes, digest)`.
fn read_back(iree_run_module: &Path, threads: &str, a: &str, b: &str) -> (u64, u64, String) {
    let report = std::env::temp_dir().join(format!(
        "amdgpu-thread-counts-read-back-{}-{threads}-{}",
        std::process::id(),
        a.len() + b.len()
    ));
    let output = Command::new(iree_run_module)
        .arg(format!("--hip_dylib_path=file:{}", library().display()))
        .arg("--device=hip")
        .arg(format!(
            "--module={}",
            root()
                .join("fixtures/iree/vmfb/matmul.gfx942.vmfb")
                .display()
        ))
        .args([
            "--function=matmul",
            &format!("--input={a}"),
            &format!("--input={b}"),
        ])
        .env("AMDGPU_SIM_MACHINE", "mi300x-8")
        .env("AMDGPU_SIM_THREADS", threads)
        .env("AMDGPU_SIM_REPORT", &report)
        .env_remove("AMDGPU_SIM_FAULTS")
        .env_remove("AMDGPU_SIM_KERNELS")
        .env_remove("AMDGPU_SIM_ON_FAULT")
        .output()
        .expect("iree-run-module");
    let text = std::fs::read_to_string(&report).unwrap_or_default();
    let _ = std::fs::remove_file(&report);
    assert!(
        output.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let field = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key)?.strip_prefix(' '))
            .unwrap_or_else(|| panic!("no {key} in the report:\n{text}"))
            .to_string()
    };
    (
        field("read_back_copies").parse().expect("a count"),
        field("read_back_bytes").parse().expect("a count"),
        field("read_back_digest"),
    )
}

/// The digest the e2e comparison relies on sees the result: the same
/// inputs read back the same digest on 1 and 4 threads, and a result that
/// differs in one column (one element of B changed) reads back another;
/// the bytes counted hold at least the result (128×64 f32).
#[test]
fn the_read_back_digest_follows_the_result_bit_for_bit() {
    let Some(iree_run_module) = iree("the report's read-back digest") else {
        return;
    };
    let a = "128x256xf32=1";
    let b = "256x64xf32=2";
    let mut elements = vec!["2"; 256 * 64];
    elements[517] = "2.5";
    let one_different = format!("256x64xf32={}", elements.join(" "));
    let one = read_back(&iree_run_module, "1", a, b);
    let four = read_back(&iree_run_module, "4", a, b);
    let other = read_back(&iree_run_module, "1", a, &one_different);
    assert!(one.0 >= 1 && one.1 >= 128 * 64 * 4, "{one:?}");
    assert_eq!(one, four, "1 and 4 threads");
    assert_eq!((other.0, other.1), (one.0, one.1), "the same copies");
    assert_ne!(other.2, one.2, "one column of the result differs");
}
