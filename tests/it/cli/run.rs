//! `amdgpu-hal run -- COMMAND…`: unmodified programs on the simulated node
//! with no other setup, one test per kind of client, each checked against
//! an answer that does not come from the node: IREE's `iree-run-module
//! --device=hip` against IREE's CPU backend (the kernel corpus's expected
//! outputs), Debian's `rocminfo` against the machine's published products,
//! a C program built by `cc` against Debian's HIP headers and library that
//! checks its own values, programs built by `hipcc` and clang's HIP mode
//! (`fixtures/hip/`) that check theirs, a program calling Debian's
//! unmodified rocSPARSE (`fixtures/rocm-libs/`) against its CPU reference,
//! `pytest` running IREE's Python API against numpy;
//! then the exit status: a faulting kernel, a failing program, a signal,
//! a program that cannot start, and the one line when the C library is
//! missing. (`--device=amdgpu` is in `sim::iree_amdgpu_run`, beside the
//! other runs of IREE's own build.)
//!
//! The C library is the one Cargo builds for this test binary, named by
//! `AMDGPU_SIM_LIB_DIR`; `installed_layout_is_found_without_settings`
//! checks the places an installed CLI looks at.

use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::sim::iree_client::iree;
use crate::support::requires::{Package, c_compiler, program, python_module, requires};

/// The build command the missing-library line names (docs/CLI.md).
const BUILD_COMMAND: &str = "cargo build --release -p amdgpu-sim-ffi -p amdgpu-sim-kfd";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The directory holding the C library and the `/dev/kfd` stand-in as
/// Cargo builds them for this test binary.
fn library_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    exe.parent().expect("deps dir").to_path_buf()
}

/// `amdgpu-hal run ARGS` from the repository root, with this build's C
/// library and none of the caller's simulator settings.
pub(crate) fn node_run(args: &[&str]) -> Command {
    let mut command = Command::new(assert_cmd::cargo::cargo_bin("amdgpu-hal"));
    command
        .current_dir(root())
        .arg("run")
        .args(args)
        .env("AMDGPU_SIM_LIB_DIR", library_dir());
    for name in [
        "AMDGPU_SIM_FAULTS",
        "AMDGPU_SIM_ON_FAULT",
        "AMDGPU_SIM_REPORT",
        "AMDGPU_SIM_TRACE",
        "AMDGPU_SIM_KERNELS",
        "AMDGPU_SIM_THREADS",
        "RUST_LOG",
    ] {
        command.env_remove(name);
    }
    command
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn show(output: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        output.status,
        text(&output.stdout),
        text(&output.stderr)
    )
}

/// The `--input=…` flags of a corpus program's `// INPUTS:` lines (each
/// `--input="VALUE"`, a value without quotes in it).
pub(crate) fn corpus_inputs(source: &Path) -> Vec<String> {
    std::fs::read_to_string(source)
        .unwrap()
        .lines()
        .filter_map(|line| line.strip_prefix("// INPUTS:"))
        .map(|flag| flag.trim().replace('"', ""))
        .collect()
}

/// A scratch directory of this test's own.
fn scratch(name: &str) -> PathBuf {
    let dir = root()
        .join("target/tmp/cli-run")
        .join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn iree_run_module_on_the_hip_driver_returns_the_cpu_results() {
    let Some(iree) = iree("amdgpu-hal run -- iree-run-module --device=hip") else {
        return;
    };
    let corpus = root().join("fixtures/kernels");
    let dir = scratch("iree-hip");
    let report = dir.join("report.txt");
    let module = corpus.join("vmfb/i8_arith.gfx942.vmfb");
    let mut command = node_run(&["--machine", "mi300x-8", "--report"]);
    command
        .arg(&report)
        .arg("--")
        .arg(&iree)
        .arg("--device=hip")
        .arg(format!("--module={}", module.display()))
        .arg("--function=i8_arith")
        .arg("--output_max_element_count=100000")
        .args(corpus_inputs(&corpus.join("src/i8_arith.mlir")));
    let output = command.output().unwrap();
    assert!(output.status.success(), "{}", show(&output));
    // IREE's CPU backend's output for the same program and inputs: exact
    // integers.
    let expected = std::fs::read_to_string(corpus.join("expected/i8_arith.txt")).unwrap();
    assert_eq!(text(&output.stdout), expected, "{}", show(&output));
    let kept = std::fs::read_to_string(&report).unwrap();
    assert!(kept.contains("launches_faulted 0\n"), "{kept}");
    assert!(!kept.contains("launches_executed 0\n"), "{kept}");
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains("amdgpu-hal run on mi300x-8: 1 process used the node; kernel launches: "),
        "{stderr}"
    );
}

#[test]
fn rocminfo_lists_every_gpu_of_the_machine() {
    let what = "amdgpu-hal run -- rocminfo";
    // rocminfo has no `--version`: found on PATH or where Debian puts it.
    let found = program("rocminfo") || Path::new("/usr/bin/rocminfo").exists();
    if !requires(what, Package::Debian("rocminfo"), found) {
        return;
    }
    let output = node_run(&["--machine", "mi300x-8", "--", "rocminfo"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", show(&output));
    let stdout = text(&output.stdout);
    // An MI300X node: eight gfx942 GPUs, each sold as the MI300X.
    let count = |needle: &str| stdout.lines().filter(|l| l.trim() == needle).count();
    assert_eq!(
        count("Marketing Name:          AMD Instinct MI300X"),
        8,
        "{stdout}"
    );
    assert_eq!(count("Name:                    gfx942"), 8, "{stdout}");
}

/// `tests/it/cli/run_hip.c` built by `cc` against Debian's HIP headers and
/// `libamdhip64`, or `None` after a skip line.
fn hip_program(what: &str, name: &str) -> Option<PathBuf> {
    let compiler = c_compiler(what)?;
    let header = Path::new("/usr/include/hip/hip_runtime_api.h").is_file()
        && Path::new("/usr/lib/x86_64-linux-gnu/libamdhip64.so").exists();
    if !requires(what, Package::Debian("libamdhip64-dev"), header) {
        return None;
    }
    let dir = scratch(name);
    let binary = dir.join("run_hip");
    let output = Command::new(compiler)
        .args(["-D__HIP_PLATFORM_AMD__", "-o"])
        .arg(&binary)
        .arg(root().join("tests/it/cli/run_hip.c"))
        .arg("-lamdhip64")
        // Debian's libamdhip64 needs libhsa-runtime64 at run time, which
        // the node replaces; the program itself calls HIP alone, so its
        // link need not resolve HIP's own dependencies.
        .arg("-Wl,--allow-shlib-undefined")
        .output()
        .unwrap();
    assert!(output.status.success(), "cc: {}", show(&output));
    Some(binary)
}

const VECTOR_ADD_GFX1100: &str = "fixtures/hsaco/vector_add.gfx1100.cov5.hsaco";

#[test]
fn a_hip_program_built_with_cc_runs_its_copies_and_kernel() {
    let Some(binary) = hip_program("amdgpu-hal run -- a HIP program built with cc", "hip-built")
    else {
        return;
    };
    let dir = scratch("hip-run");
    let report = dir.join("report.txt");
    let mut command = node_run(&["--machine", "w7900", "--report"]);
    command
        .arg(&report)
        .arg("--")
        .arg(&binary)
        .arg(VECTOR_ADD_GFX1100);
    let output = command.output().unwrap();
    assert!(output.status.success(), "{}", show(&output));
    // The W7900 preset: one GPU, AMD's product name and its gfx1100 chip;
    // the values the program checks itself.
    assert_eq!(
        text(&output.stdout),
        "devices 1\ndevice 0 AMD Radeon PRO W7900 gfx1100\ncopy ok\nfill ok\n\
         vector_add 0 of 1000 wrong\n"
    );
    let kept = std::fs::read_to_string(&report).unwrap();
    assert!(kept.contains("launches_executed 1\n"), "{kept}");
    assert!(
        text(&output.stderr).contains(
            "amdgpu-hal run on w7900: 1 process used the node; kernel launches: 1 executed, \
             0 faulted, 0 refused, 0 skipped; 0 HSA and "
        ),
        "{}",
        show(&output)
    );
    assert!(
        text(&output.stderr).contains("; no live objects left."),
        "{}",
        show(&output)
    );
    // The fidelity account: the kernel's line kept, its classes adding up
    // to its instructions, and the totals in the paragraph.
    let line = kept
        .lines()
        .find(|l| l.starts_with("kernel ") && l.contains(" instructions "))
        .unwrap_or_else(|| panic!("no kernel line in the kept report:\n{kept}"));
    let numbers: Vec<u64> = line.split(' ').filter_map(|w| w.parse().ok()).collect();
    let [all, exact, approximate, unmodelled] = numbers[..] else {
        panic!("{line}");
    };
    assert!(all > 0 && exact + approximate + unmodelled == all, "{line}");
    assert!(
        text(&output.stderr).contains(&format!("; {all} instructions executed: {exact} exact, ")),
        "{}",
        show(&output)
    );
}

/// The programs of `fixtures/hip/` were built by Debian's `hipcc` (gfx90a)
/// and by clang-19 `-x hip` (gfx942, gfx1100): their kernels come in
/// through HIP's fat-binary registration and `<<<…>>>` launches, with no
/// HIP call of the test's own.
#[test]
fn hipcc_built_programs_run_unmodified() {
    for (program, machine) in [
        ("fixtures/hip/reduction.gfx90a", "mi250x-4"),
        ("fixtures/hip/reduction", "mi300x-8"),
        ("fixtures/hip/reduction", "w7900"),
    ] {
        let report = scratch(&format!("hipcc-{machine}")).join("report.txt");
        let mut command = node_run(&["--machine", machine, "--report"]);
        command.arg(&report).arg("--").arg(root().join(program));
        let output = command.output().unwrap();
        assert!(
            output.status.success(),
            "{program} on {machine}: {}",
            show(&output)
        );
        // The program checks its own sums on the host.
        assert!(
            text(&output.stdout).contains("PASS reduction"),
            "{program} on {machine}: {}",
            show(&output)
        );
        let kept = std::fs::read_to_string(&report).unwrap();
        assert!(kept.contains("launches_faulted 0\n"), "{kept}");
        assert!(!kept.contains("launches_executed 0\n"), "{kept}");
        assert!(
            text(&output.stderr).contains("; no live objects left."),
            "{program} on {machine}: {}",
            show(&output)
        );
    }
}

/// Debian's rocSPARSE (ROCm 5.3, package `librocsparse0`), unmodified,
/// under `run` on `mi250x-4`: the library's start-up code registers its
/// 111 fat binaries with the node's `libamdhip64.so.5`, and the program
/// (`fixtures/rocm-libs/rocsparse_check`) checks SpMV, SpMM, SpSM and the
/// conversions against its own CPU loops.
#[test]
fn rocsparse_runs_unmodified_and_matches_the_cpu() {
    let what = "rocsparse_runs_unmodified_and_matches_the_cpu";
    let found = Path::new("/usr/lib/x86_64-linux-gnu/librocsparse.so.0").exists();
    if !requires(what, Package::Debian("librocsparse0"), found) {
        return;
    }
    let report = scratch("rocsparse").join("report.txt");
    let mut command = node_run(&["--machine", "mi250x-4", "--report"]);
    command
        .arg(&report)
        .arg("--")
        .arg(root().join("fixtures/rocm-libs/rocsparse_check"));
    let output = command.output().unwrap();
    assert!(output.status.success(), "{}", show(&output));
    assert!(
        text(&output.stdout).contains("PASS rocsparse"),
        "{}",
        show(&output)
    );
    let kept = std::fs::read_to_string(&report).unwrap();
    assert!(kept.contains("launches_faulted 0\n"), "{kept}");
    assert!(!kept.contains("launches_executed 0\n"), "{kept}");
    assert!(
        text(&output.stderr).contains("; no live objects left."),
        "{}",
        show(&output)
    );
}

#[test]
fn the_reports_of_every_process_of_a_run_are_summed() {
    let Some(binary) = hip_program("amdgpu-hal run of two processes", "hip-twice") else {
        return;
    };
    let dir = scratch("hip-twice-run");
    let report = dir.join("report.txt");
    // Each process launches vector_add once: one report each, summed.
    let twice = format!(
        "{0} {1} && {0} {1}",
        binary.display(),
        root().join(VECTOR_ADD_GFX1100).display()
    );
    let mut command = node_run(&["--machine", "w7900", "--report"]);
    command.arg(&report).args(["--", "sh", "-c", &twice]);
    let output = command.output().unwrap();
    assert!(output.status.success(), "{}", show(&output));
    let kept = std::fs::read_to_string(&report).unwrap();
    assert!(kept.contains("launches_executed 2\n"), "{kept}");
    assert!(
        text(&output.stderr).contains("amdgpu-hal run on w7900: 2 processes used the node"),
        "{}",
        show(&output)
    );
}

#[test]
fn a_faulting_kernel_fails_the_run() {
    let Some(binary) = hip_program("amdgpu-hal run --faults kernel@1", "hip-faults") else {
        return;
    };
    let run = |extra: &[&str], on_fault: Option<&str>| {
        let mut args = vec!["--machine", "w7900", "--faults", "kernel@1"];
        args.extend_from_slice(extra);
        let mut command = node_run(&args);
        command
            .arg("--")
            .arg(&binary)
            .arg(VECTOR_ADD_GFX1100)
            .arg("--ignore-errors");
        if let Some(policy) = on_fault {
            command.env("AMDGPU_SIM_ON_FAULT", policy);
        }
        command.output().unwrap()
    };
    // As on ROCm, the fault ends the program (SIGABRT: 128 + 6).
    let aborted = run(&[], None);
    assert_eq!(aborted.status.code(), Some(134), "{}", show(&aborted));
    // A program that lives on and ignores the failure still fails the run,
    // with one line saying why…
    let ignored = run(&[], Some("report"));
    assert_eq!(ignored.status.code(), Some(1), "{}", show(&ignored));
    let why: Vec<String> = text(&ignored.stderr)
        .lines()
        .filter(|l| l.starts_with("amdgpu-hal run:"))
        .map(str::to_owned)
        .collect();
    assert_eq!(why.len(), 1, "{}", show(&ignored));
    assert!(why[0].contains("saw 1 kernel launch fault"), "{why:?}");
    // …unless asked to keep the program's status.
    let allowed = run(&["--allow-faults"], Some("report"));
    assert_eq!(allowed.status.code(), Some(0), "{}", show(&allowed));
}

#[test]
fn a_kernel_the_node_cannot_run_fails_the_run() {
    let Some(binary) = hip_program("amdgpu-hal run of an unrunnable kernel", "hip-refused") else {
        return;
    };
    // vector_add with its first instruction made `v_lerp_u8 v0, v1, v2, v3`
    // (gfx1100, llvm-mc-19 -show-encoding): valid code the interpreter does
    // not implement. The function starts at file offset 0x900
    // (llvm-readelf-19 -sS: `.text` at 0x1900, file offset 0x900).
    let dir = scratch("hip-refused-run");
    let mut image = std::fs::read(root().join(VECTOR_ADD_GFX1100)).unwrap();
    image[0x900..0x908].copy_from_slice(&[0x00, 0x00, 0x15, 0xd6, 0x01, 0x05, 0x0e, 0x04]);
    let patched = dir.join("vector_add.lerp.hsaco");
    std::fs::write(&patched, image).unwrap();
    let report = dir.join("report.txt");
    let mut command = node_run(&["--machine", "w7900", "--report"]);
    command
        .arg(&report)
        .arg("--")
        .arg(&binary)
        .arg(&patched)
        .arg("--ignore-errors")
        .env("AMDGPU_SIM_ON_FAULT", "report");
    let output = command.output().unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", show(&output));
    assert!(
        text(&output.stdout).contains("error hipModuleLaunchKernel: hipErrorLaunchFailure"),
        "{}",
        show(&output)
    );
    assert!(
        text(&output.stderr).contains(
            "the program exited 0 but the simulated node saw 1 kernel launch it could not run"
        ),
        "{}",
        show(&output)
    );
    let kept = std::fs::read_to_string(&report).unwrap();
    assert!(kept.contains("launches_refused 1\n"), "{kept}");
    assert!(kept.contains("launches_executed 0\n"), "{kept}");
}

#[test]
fn pytest_runs_iree_python_api_on_the_hip_driver() {
    let what = "amdgpu-hal run -- pytest (IREE's Python API)";
    if iree(what).is_none()
        || !requires(what, Package::Pip("pytest"), python_module("pytest"))
        || !requires(what, Package::Pip("numpy"), python_module("numpy"))
    {
        return;
    }
    let dir = scratch("pytest");
    let test = dir.join("test_elementwise.py");
    let module = root().join("fixtures/iree/vmfb/elementwise.gfx942.vmfb");
    std::fs::write(
        &test,
        format!(
            r#"import numpy as np
import iree.runtime as rt


def test_elementwise_on_the_hip_driver():
    config = rt.Config("hip")
    context = rt.SystemContext(config=config)
    context.add_vm_module(rt.VmModule.mmap(config.vm_instance, "{module}"))
    a = np.arange(4096, dtype=np.float32) / 8
    b = np.full(4096, 3, dtype=np.float32)
    result = context.modules.module.elementwise(a, b).to_host()
    # The program is c = a * b + a; numpy computes it on the host.
    np.testing.assert_array_equal(result, a * b + a)
"#,
            module = module.display()
        ),
    )
    .unwrap();
    let mut command = node_run(&["--machine", "mi300x-8", "--report"]);
    command
        .arg(dir.join("report.txt"))
        .args([
            "--",
            "python3",
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
        ])
        .arg(&test);
    let output = command.output().unwrap();
    assert!(output.status.success(), "{}", show(&output));
    assert!(
        text(&output.stdout).contains("1 passed"),
        "{}",
        show(&output)
    );
    let kept = std::fs::read_to_string(dir.join("report.txt")).unwrap();
    assert!(kept.contains("launches_executed 1\n"), "{kept}");
}

/// `--threads N` reaches the node as `AMDGPU_SIM_THREADS`, within the
/// node's own bound; a kernel's results do not depend on it (the corpora's
/// thread-count test, `sim::thread_counts`).
#[test]
fn threads_are_passed_to_the_node_within_its_bound() {
    let most = amdgpu_isa::MAX_THREADS.to_string();
    for threads in ["1", most.as_str()] {
        let output = node_run(&[
            "--threads",
            threads,
            "--",
            "sh",
            "-c",
            "echo $AMDGPU_SIM_THREADS",
        ])
        .output()
        .unwrap();
        assert!(output.status.success(), "{}", show(&output));
        assert_eq!(text(&output.stdout), format!("{threads}\n"));
    }
    let past = (amdgpu_isa::MAX_THREADS + 1).to_string();
    for threads in ["0", past.as_str(), "many"] {
        let output = node_run(&["--threads", threads, "--", "true"])
            .output()
            .unwrap();
        // clap's usage error: nothing ran.
        assert_eq!(output.status.code(), Some(2), "{}", show(&output));
        assert!(
            text(&output.stderr).contains("--threads"),
            "{}",
            show(&output)
        );
    }
}

#[test]
fn the_program_s_exit_status_passes_through() {
    let status = |args: &[&str]| node_run(args).output().unwrap().status;
    assert_eq!(status(&["--", "sh", "-c", "exit 7"]).code(), Some(7));
    assert_eq!(status(&["--", "true"]).code(), Some(0));
    // A signal, as shells say it: 128 + SIGTERM's 15.
    let killed = status(&["--", "sh", "-c", "kill -TERM $$"]);
    assert_eq!((killed.code(), killed.signal()), (Some(143), None));
    // A command that is not there, as `env` says it.
    assert_eq!(status(&["--", "/no/such/program"]).code(), Some(127));
}

#[test]
fn sigterm_to_run_reaches_the_program() {
    use std::io::BufRead;
    // The program says it is ready (its handler set), then waits; SIGTERM
    // sent to `run` alone must reach it, and its exit status come back.
    let mut child = node_run(&[
        "--",
        "sh",
        "-c",
        "sleep 600 & trap 'kill $!; exit 42' TERM; echo ready; wait",
    ])
    .stdout(std::process::Stdio::piped())
    .spawn()
    .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert_eq!(line, "ready\n");
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    assert_eq!(child.wait().unwrap().code(), Some(42));
}

#[test]
fn the_node_environment_is_what_the_docs_say() {
    let output = node_run(&[
        "--machine",
        "mi250x-4",
        "--faults",
        "hipMalloc@2=2",
        "--",
        "sh",
        "-c",
        "echo $AMDGPU_SIM_MACHINE; echo $AMDGPU_SIM_FAULTS; \
         ls $IREE_HAL_AMDGPU_LIBHSA_PATH; echo $LD_PRELOAD; lsmod",
    ])
    .env("LD_PRELOAD", "")
    .env("LC_ALL", "C")
    .output()
    .unwrap();
    assert!(output.status.success(), "{}", show(&output));
    let stdout = text(&output.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines[..7],
        [
            "mi250x-4",
            "hipMalloc@2=2",
            "libamdhip64.so",
            "libamdhip64.so.5",
            "libamdhip64.so.6",
            "libhsa-runtime64.so",
            "libhsa-runtime64.so.1",
        ],
        "{stdout}"
    );
    assert_eq!(
        lines[7],
        library_dir()
            .join("libamdgpu_sim_kfd.so")
            .display()
            .to_string()
    );
    assert!(
        lines[8..].iter().any(|l| l.starts_with("amdgpu ")),
        "{stdout}"
    );
}

#[test]
fn a_missing_c_library_is_one_line_naming_the_build_command() {
    let empty = scratch("no-library");
    let output = node_run(&["--", "true"])
        .env("AMDGPU_SIM_LIB_DIR", &empty)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(125), "{}", show(&output));
    assert!(output.stdout.is_empty());
    let stderr = text(&output.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("Error: NOT_FOUND; "), "{stderr}");
    for needle in [
        "libamdgpu_sim_ffi.so",
        "libamdgpu_sim_kfd.so",
        BUILD_COMMAND,
        &format!("AMDGPU_SIM_LIB_DIR={}", empty.display()),
    ] {
        assert!(stderr.contains(needle), "{needle} not in {stderr}");
    }
}

#[test]
fn installed_layout_is_found_without_settings() {
    // An install prefix: the binary in bin/, the libraries in
    // lib/amdgpu-hal/ (what .github/actions/amdgpu-hal-run sets up).
    let prefix = scratch("prefix");
    std::fs::create_dir_all(prefix.join("bin")).unwrap();
    std::fs::create_dir_all(prefix.join("lib/amdgpu-hal")).unwrap();
    let binary = prefix.join("bin/amdgpu-hal");
    let built = assert_cmd::cargo::cargo_bin("amdgpu-hal");
    std::fs::hard_link(&built, &binary)
        .or_else(|_| std::fs::copy(&built, &binary).map(drop))
        .unwrap();
    for name in ["libamdgpu_sim_ffi.so", "libamdgpu_sim_kfd.so"] {
        std::fs::copy(
            library_dir().join(name),
            prefix.join("lib/amdgpu-hal").join(name),
        )
        .unwrap();
    }
    let output = Command::new(&binary)
        .args(["run", "--", "sh", "-c", "echo $LD_PRELOAD"])
        .env_remove("AMDGPU_SIM_LIB_DIR")
        .env_remove("LD_PRELOAD")
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", show(&output));
    assert_eq!(
        text(&output.stdout).trim(),
        prefix
            .join("bin/../lib/amdgpu-hal/libamdgpu_sim_kfd.so")
            .display()
            .to_string()
    );
    std::fs::remove_dir_all(&prefix).unwrap();
}
