//! Whole IREE programs on IREE's own AMDGPU driver: `iree-run-module
//! --device=amdgpu`, built from IREE's source by `scripts/iree-cts/build.sh`
//! (`iree_build`), runs every module of `fixtures/iree/amdgpu/` on the
//! simulated node — mi300x-8 with the gfx942 modules, mi250x-4 with gfx90a,
//! w7900 with gfx1100 — with the C library as `libhsa-runtime64.so.1` and the
//! `/dev/kfd` stand-in preloaded:
//!
//! - every run ends within [`HANG_AFTER_SECS`] with exit status 0;
//! - its results are those of the same program on IREE's CPU backend
//!   (`fixtures/iree/expected/`, made by `fixtures/iree/build-amdgpu.sh`
//!   with PyPI's runtime on `local-task`), under each program's tolerance;
//! - the library's report (`AMDGPU_SIM_REPORT`) shows nothing alive and no
//!   kernel skipped or faulted;
//! - a kernel that faults (`AMDGPU_SIM_FAULTS=kernel@N`) ends the run with
//!   `SIGABRT`, never a result, as on ROCm; with `AMDGPU_SIM_ON_FAULT=report`
//!   the driver hears of it through its queue's error callback and the run
//!   fails with IREE's error.
//!
//! `scripts/kernels-check.py` (`--device amdgpu --report`) does the runs and
//! the comparison, as it does for the kernel corpus on the HIP driver. The
//! oracle itself is checked where PyPI's runtime is installed: the expected
//! outputs are what the CPU modules print now, and the HIP modules of the
//! same programs return them through IREE's HIP driver on the same node.
//!
//! Needs IREE's build (`iree_build`); without it the test prints one line and
//! passes, unless `AMDGPU_HAL_REQUIRE_ALL=1`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus};

use super::iree_build::{built, hsa_library_dir, results, root};
use crate::sim::iree_client::{iree, library};

const WHAT: &str = "IREE's iree-run-module --device=amdgpu on the simulated node";
/// The presets and the chip of the modules each one runs.
const PRESETS: &[&str] = &["mi300x-8=gfx942", "mi250x-4=gfx90a", "w7900=gfx1100"];
/// Seconds one run may take before it counts as hung: far above a run's
/// time on a loaded two-core machine.
const HANG_AFTER_SECS: &str = "120";
/// The programs of `fixtures/iree/src/`, with the fewest kernels each one
/// dispatches (its own; IREE's built-in fill and copy kernels come on top).
const PROGRAMS: &[(&str, u64)] = &[
    ("add", 1),
    ("data_move", 0),
    ("dynamic", 1),
    ("elementwise", 1),
    ("matmul", 1),
    ("multi_dispatch", 3),
];

fn corpus() -> PathBuf {
    root().join("fixtures/iree")
}

/// Runs `scripts/kernels-check.py ARGS` over the fixture programs with
/// `tool`; its table and, when `json` is given, the parsed record of every
/// run. Fails when the checker does (a run that did not pass).
fn check(args: &[&str], tool: &Path, json: Option<&Path>) -> (String, Option<serde_json::Value>) {
    let corpus = corpus();
    let mut command = Command::new("python3");
    command
        .arg(root().join("scripts/kernels-check.py"))
        .args(args)
        .args(["--corpus", &corpus.display().to_string()])
        .args(["--iree-run-module", &tool.display().to_string()])
        .args(["--timeout", HANG_AFTER_SECS]);
    if let Some(json) = json {
        command.args(["--json", &json.display().to_string()]);
    }
    let output = command.output().expect("python3");
    let table = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "kernels-check.py {args:?}:\n{table}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let _ = std::io::stderr().lock().write_all(table.as_bytes());
    (table, json.map(results))
}

#[test]
fn every_fixture_module_returns_the_cpu_results_on_each_preset() {
    let Some(work) = built(WHAT) else {
        return;
    };
    let libdir = hsa_library_dir().display().to_string();
    let modules = corpus().join("amdgpu").display().to_string();
    let mut args = vec![
        libdir.as_str(),
        "--device",
        "amdgpu",
        "--modules",
        &modules,
        "--report",
    ];
    for preset in PRESETS {
        args.extend(["--preset", preset]);
    }
    let json = work.join("results-amdgpu-run.json");
    let (table, document) = check(&args, &work.join("iree-run-module"), Some(&json));
    let runs = document.unwrap()["runs"].as_array().expect("runs").clone();
    let n = PROGRAMS.len() * PRESETS.len();
    assert_eq!(runs.len(), n, "{table}");
    assert!(table.contains(&format!("{n} runs: {n} pass")), "{table}");
    for run in &runs {
        let program = run["program"].as_str().unwrap();
        let what = format!("{program} on {}", run["machine"]);
        let report = &run["report"];
        let count = |key: &str| {
            report[key]
                .as_u64()
                .unwrap_or_else(|| panic!("{what}: no {key} in {report}"))
        };
        let own = PROGRAMS.iter().find(|(p, _)| *p == program).unwrap().1;
        assert!(
            count("launches_executed") >= own,
            "{what}: {} kernels executed, the program dispatches {own}",
            count("launches_executed")
        );
        assert_eq!(count("launches_skipped"), 0, "{what}");
        assert_eq!(count("launches_faulted"), 0, "{what}");
        assert!(count("hsa_calls") > 0, "{what}: no HSA call");
        assert_eq!(
            count("hip_calls"),
            0,
            "{what}: the AMDGPU driver made HIP calls"
        );
        // The fidelity account counts the queue dispatches' instructions,
        // every one in some class.
        assert!(count("instructions") > 0, "{what}: no instruction counted");
        assert_eq!(
            count("instructions_exact")
                + count("instructions_approximate")
                + count("instructions_unmodelled"),
            count("instructions"),
            "{what}"
        );
    }
}

/// `iree-run-module --device=amdgpu` of `multi_dispatch` on mi300x-8 with
/// `faults` armed and `env`; its exit status, stdout and stderr.
fn faulted_run(work: &Path, faults: &str, env: &[(&str, &str)]) -> (ExitStatus, String, String) {
    let libdir = hsa_library_dir();
    let output = Command::new("timeout")
        .args([
            HANG_AFTER_SECS,
            &work.join("iree-run-module").display().to_string(),
        ])
        .arg("--device=amdgpu")
        .arg(format!(
            "--module={}",
            corpus().join("amdgpu/multi_dispatch.gfx942.vmfb").display()
        ))
        .args([
            "--function=multi_dispatch",
            "--input=64x128xf32=1",
            "--input=128x32xf32=1",
        ])
        .env("AMDGPU_SIM_MACHINE", "mi300x-8")
        .env("IREE_HAL_AMDGPU_LIBHSA_PATH", &libdir)
        .env("LD_PRELOAD", libdir.join("libamdgpu_sim_kfd.so"))
        .env("AMDGPU_SIM_FAULTS", faults)
        .env_remove("AMDGPU_SIM_ON_FAULT")
        .envs(env.iter().copied())
        .output()
        .expect("run iree-run-module");
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    (output.status, text(&output.stdout), text(&output.stderr))
}

#[test]
fn a_faulting_kernel_never_ends_an_amdgpu_run_in_a_result() {
    use std::os::unix::process::ExitStatusExt;
    let Some(work) = built("a faulting kernel under IREE's AMDGPU driver") else {
        return;
    };
    // The program's second kernel of its own (IREE's built-in kernels
    // count too: every kernel from the second on faults).
    let (status, stdout, stderr) = faulted_run(&work, "kernel@2+", &[]);
    assert_eq!(status.signal(), Some(6), "{status:?}\n{stderr}");
    assert!(
        stderr.contains("faulted: memory access fault injected")
            && stderr.contains("aborts the process, as on ROCm"),
        "{stderr}"
    );
    assert!(!stdout.contains("result[0]"), "{stdout}");
    // Reported instead: the queue's error callback fails the run.
    let (status, stdout, stderr) =
        faulted_run(&work, "kernel@2+", &[("AMDGPU_SIM_ON_FAULT", "report")]);
    assert_eq!(status.code(), Some(1), "{status:?}\n{stderr}");
    assert!(
        stderr.contains("HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION")
            || stderr.contains("hsa_queue_error_callback"),
        "{stderr}"
    );
    assert!(!stdout.contains("result[0]"), "{stdout}");
}

#[test]
fn the_expected_outputs_are_what_the_cpu_modules_print() {
    let Some(tool) = iree("the CPU oracle of the AMDGPU fixture modules") else {
        return;
    };
    let modules = corpus().join("amdgpu").display().to_string();
    let (table, _) = check(&["--cpu", "--modules", &modules], &tool, None);
    let n = PROGRAMS.len();
    assert!(table.contains(&format!("{n} runs: {n} pass")), "{table}");
}

#[test]
fn the_hip_modules_of_the_same_programs_return_the_expected_outputs() {
    let Some(tool) = iree("the CPU oracle against IREE's HIP driver on the simulated node") else {
        return;
    };
    // `vmfb/` (build-vmfb.sh) holds the HIP modules of every program but
    // `add`, which only scripts/iree-run-cost.sh compiles.
    let lib = library().display().to_string();
    let with_hip: Vec<&str> = PROGRAMS
        .iter()
        .map(|(p, _)| *p)
        .filter(|p| corpus().join(format!("vmfb/{p}.gfx942.vmfb")).is_file())
        .collect();
    assert_eq!(with_hip.len(), PROGRAMS.len() - 1, "{with_hip:?}");
    let mut args = vec![lib.as_str(), "--report"];
    for preset in PRESETS {
        args.extend(["--preset", preset]);
    }
    for program in &with_hip {
        args.extend(["--program", program]);
    }
    let (table, _) = check(&args, &tool, None);
    let n = with_hip.len() * PRESETS.len();
    assert!(table.contains(&format!("{n} runs: {n} pass")), "{table}");
}

/// `amdgpu-hal run -- iree-run-module --device=amdgpu`: IREE's AMDGPU
/// driver finds the node with no setup of its own (`run` sets
/// `IREE_HAL_AMDGPU_LIBHSA_PATH` and preloads the `/dev/kfd` stand-in), and
/// the add program returns IREE's CPU backend's result.
#[test]
fn amdgpu_hal_run_puts_the_amdgpu_driver_on_the_node() {
    let Some(work) = built("amdgpu-hal run -- iree-run-module --device=amdgpu") else {
        return;
    };
    let mut command = crate::cli::run::node_run(&["--machine", "mi300x-8", "--"]);
    command
        .arg(work.join("iree-run-module"))
        .arg("--device=amdgpu")
        .arg(format!(
            "--module={}",
            corpus().join("amdgpu/add.gfx942.vmfb").display()
        ))
        .arg("--function=add")
        .args(crate::cli::run::corpus_inputs(
            &corpus().join("src/add.mlir"),
        ));
    let output = command.output().expect("amdgpu-hal run");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{}\n{stdout}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    // The add program's TOLERANCE is exact.
    let expected = std::fs::read_to_string(corpus().join("expected/add.txt")).unwrap();
    assert_eq!(stdout, expected);
}
