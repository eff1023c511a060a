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
use std::path::Path;

use crate::program_run::{self, Run};

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

/// What a program must leave alive at exit: nothing.
const OBJECTS: [&str; 6] = [
    "allocations",
    "hip_streams",
    "hip_events",
    "hip_modules",
    "hip_fat_binaries",
    "host_allocations",
];

/// Runs `program` on `mi250x-4` with `env` besides the library and the
/// report.
fn run(program: &Program, env: &[(&str, &str)]) -> Run {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/rocm-libs")
        .join(program.file);
    program_run::run(&path, "rocm-libraries", "mi250x-4", env)
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
    run.none_alive(&OBJECTS);
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
