//! Debian's ROCm libraries (ROCm 5.3: `librocrand1`, `libhiprand1`,
//! `librocsparse0`), unmodified, on the simulated `mi250x-4`: the check
//! programs of `fixtures/rocm-libs` (built by its `build.sh` against the
//! -dev packages) run against this library under the name
//! `libamdhip64.so.5`; the ROCm libraries they link register their fat
//! binaries (gfx90a code among gfx803 … gfx1030) and launch through
//! `hipLaunchKernel`. Each program compares what the library computed
//! with its own CPU reference (rand_reference.h: Philox4x32-10, MRG32k3a,
//! XORWOW and Sobol pinned by published vectors; a plain CPU SpMV, SpMM,
//! triangular solve and conversions) and prints `PASS NAME`. A kernel
//! fault and an injected failure must end a program with the error,
//! never `PASS`, and leave nothing alive.
//!
//! A missing package skips its test in one line naming it.

use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use crate::rocminfo::skip;

/// Where Debian installs the libraries.
const LIBRARY_DIR: &str = "/usr/lib/x86_64-linux-gnu";

/// A program of `fixtures/rocm-libs` and the ROCm libraries it loads,
/// each with its Debian package.
struct Program {
    file: &'static str,
    libraries: &'static [(&'static str, &'static str)],
}

const ROCRAND: Program = Program {
    file: "rocrand_check",
    libraries: &[("librocrand.so.1", "librocrand1")],
};
/// hipRAND forwards to rocRAND: both load.
const HIPRAND: Program = Program {
    file: "hiprand_check",
    libraries: &[
        ("libhiprand.so.1", "libhiprand1"),
        ("librocrand.so.1", "librocrand1"),
    ],
};
const ROCSPARSE: Program = Program {
    file: "rocsparse_check",
    libraries: &[("librocsparse.so.0", "librocsparse0")],
};

/// Whether every library `program` loads is installed; a skip line
/// naming the first missing one's package otherwise.
fn installed(program: &Program, what: &str) -> bool {
    let missing = program
        .libraries
        .iter()
        .find(|(library, _)| !Path::new(LIBRARY_DIR).join(library).exists());
    let Some((library, package)) = missing else {
        return true;
    };
    skip(
        what,
        &format!("no {library} in {LIBRARY_DIR}; needs Debian package {package}"),
    );
    false
}

/// A folder holding `libamdhip64.so.5`, a link to the library cargo built
/// beside this test binary (found before Debian's own by the loader).
fn library_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let exe = std::env::current_exe().expect("test binary path");
        let built = exe.parent().expect("deps dir").join("libamdgpu_sim_ffi.so");
        assert!(built.exists(), "{} not built", built.display());
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("rocm-libraries-lib");
        std::fs::create_dir_all(&dir).expect("library folder");
        let link = dir.join("libamdhip64.so.5");
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(&built, &link).expect("link the library");
        dir
    })
}

/// A finished run: its output and report.
struct Run {
    output: Output,
    report: String,
}

impl Run {
    fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.output.stdout).into_owned()
    }

    fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.output.stderr).into_owned()
    }

    fn show(&self) -> String {
        format!(
            "status {:?}\nstdout:\n{}\nstderr:\n{}\nreport:\n{}",
            self.output.status,
            self.stdout(),
            self.stderr(),
            self.report
                .lines()
                .filter(|l| !l.starts_with("kernel "))
                .collect::<Vec<_>>()
                .join("\n")
        )
    }

    /// The report's value for `key` (a test failure when absent).
    fn value(&self, key: &str) -> u64 {
        self.report
            .lines()
            .find_map(|line| line.strip_prefix(key)?.strip_prefix(' ')?.parse().ok())
            .unwrap_or_else(|| panic!("no `{key}` in the report\n{}", self.show()))
    }

    /// Asserts nothing is left alive: allocations, streams, events,
    /// modules, fat binaries.
    fn released(&self) {
        for key in [
            "allocations",
            "hip_streams",
            "hip_events",
            "hip_modules",
            "hip_fat_binaries",
            "host_allocations",
        ] {
            assert_eq!(self.value(key), 0, "{key}\n{}", self.show());
        }
    }
}

/// Runs `program` on `mi250x-4` with `env` besides the library and the
/// report.
fn run(program: &Program, env: &[(&str, &str)]) -> Run {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("rocm-libraries");
    std::fs::create_dir_all(&dir).expect("report folder");
    let tag: String = env
        .iter()
        .flat_map(|(k, v)| [k, v])
        .flat_map(|s| s.chars())
        .filter(char::is_ascii_alphanumeric)
        .collect();
    let report = dir.join(format!("{}-{tag}.report", program.file));
    let _ = std::fs::remove_file(&report);
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/rocm-libs")
        .join(program.file);
    let mut command = Command::new(&path);
    for name in [
        "AMDGPU_SIM_FAULTS",
        "AMDGPU_SIM_ON_FAULT",
        "AMDGPU_SIM_TRACE",
        "AMDGPU_SIM_KERNELS",
        "AMDGPU_SIM_STREAMS",
    ] {
        command.env_remove(name);
    }
    command
        .env("LD_LIBRARY_PATH", library_dir())
        .env("AMDGPU_SIM_MACHINE", "mi250x-4")
        .env("AMDGPU_SIM_REPORT", &report)
        .envs(env.iter().copied());
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("run {}: {e}", path.display()));
    Run {
        output,
        report: std::fs::read_to_string(&report).unwrap_or_default(),
    }
}

/// Runs `program` and asserts its `PASS`, every launch executed without
/// a fault, and nothing left alive.
fn passes(program: &Program, name: &str) {
    let run = run(program, &[]);
    let what = format!("{} on mi250x-4\n{}", program.file, run.show());
    assert!(run.output.status.success(), "{what}");
    assert!(run.stdout().contains(&format!("PASS {name}")), "{what}");
    let launches = run.value("launches");
    assert!(launches >= 1, "{what}");
    assert_eq!(run.value("launches_executed"), launches, "{what}");
    assert_eq!(run.value("launches_faulted"), 0, "{what}");
    assert_eq!(run.value("launches_refused"), 0, "{what}");
    run.released();
}

#[test]
fn rocrand_generators_match_their_cpu_references() {
    if installed(&ROCRAND, "rocrand_generators_match_their_cpu_references") {
        passes(&ROCRAND, "rocrand");
    }
}

#[test]
fn hiprand_generators_match_their_cpu_references() {
    if installed(&HIPRAND, "hiprand_generators_match_their_cpu_references") {
        passes(&HIPRAND, "hiprand");
    }
}

#[test]
fn rocsparse_products_solves_and_conversions_match_the_cpu() {
    if installed(
        &ROCSPARSE,
        "rocsparse_products_solves_and_conversions_match_the_cpu",
    ) {
        passes(&ROCSPARSE, "rocsparse");
    }
}

/// A rocSPARSE kernel that faults (`kernel@3`, the third launch): by
/// default the process aborts, as ROCm's fault handler does; under
/// `AMDGPU_SIM_ON_FAULT=report` the program sees the HIP error at its
/// next synchronization (or rocSPARSE returns its status) and exits 1.
#[test]
fn a_library_kernel_that_faults_ends_the_program_with_the_error() {
    if !installed(
        &ROCSPARSE,
        "a_library_kernel_that_faults_ends_the_program_with_the_error",
    ) {
        return;
    }
    let aborted = run(&ROCSPARSE, &[("AMDGPU_SIM_FAULTS", "kernel@3")]);
    assert_eq!(
        aborted.output.status.signal(),
        Some(6),
        "{}",
        aborted.show()
    );
    assert!(!aborted.stdout().contains("PASS"), "{}", aborted.show());
    let reported = run(
        &ROCSPARSE,
        &[
            ("AMDGPU_SIM_FAULTS", "kernel@3"),
            ("AMDGPU_SIM_ON_FAULT", "report"),
        ],
    );
    assert_eq!(
        reported.output.status.code(),
        Some(1),
        "{}",
        reported.show()
    );
    assert!(!reported.stdout().contains("PASS"), "{}", reported.show());
    assert!(
        reported.stderr().contains("FAIL rocsparse")
            && (reported.stderr().contains("hipErrorIllegalAddress")
                || reported.stderr().contains("returned status")),
        "{}",
        reported.show()
    );
    assert_eq!(reported.value("launches_faulted"), 1, "{}", reported.show());
}

/// A failure injected into rocRAND's registration of its fat binary, or
/// into its first launch: the generator answers
/// `ROCRAND_STATUS_LAUNCH_FAILURE` (status 107), the program exits 1
/// without `PASS`, and the registration leaks nothing.
#[test]
fn an_injected_failure_under_rocrand_is_its_launch_failure() {
    if !installed(
        &ROCRAND,
        "an_injected_failure_under_rocrand_is_its_launch_failure",
    ) {
        return;
    }
    for op in ["__hipRegisterFatBinary", "hipLaunchKernel"] {
        let fault = format!("{op}@1=2");
        let run = run(&ROCRAND, &[("AMDGPU_SIM_FAULTS", &fault)]);
        let what = format!("{fault}\n{}", run.show());
        assert_eq!(run.output.status.code(), Some(1), "{what}");
        assert!(!run.stdout().contains("PASS"), "{what}");
        assert!(run.stderr().contains("returned status 107"), "{what}");
        assert!(
            run.report
                .contains(&format!("injected {op} -> 2 hipErrorOutOfMemory")),
            "{what}"
        );
        assert_eq!(run.value("launches_executed"), 0, "{what}");
        for key in ["hip_modules", "hip_fat_binaries", "host_allocations"] {
            assert_eq!(run.value(key), 0, "{key}: {what}");
        }
    }
}
