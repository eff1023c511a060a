//! HIP programs built by real compilers (`fixtures/hip`, built by
//! `fixtures/hip/build.sh`: clang-19 for gfx942 and gfx1100, Debian's
//! hipcc for gfx90a) run unmodified against this library under the name
//! `libamdhip64.so.5`: their start-up code registers the fat binary, their
//! `<<<…>>>` launches go through `hipLaunchKernel`. Each program checks
//! its own results on the host and prints `PASS NAME`; here each must do
//! so on every preset whose chip it carries code for, with the launches
//! executed and nothing left alive in the report. A program without code
//! for the device, a kernel that faults and a failure injected into each
//! new entry point must end the program with the HIP error — never with
//! `PASS` and status 0 — and leak nothing the registration made.

use std::os::unix::process::ExitStatusExt;
use std::path::Path;

use crate::program_run::{self, Run};

/// The programs (`fixtures/hip/src/NAME.hip`) and whether each needs two GPUs.
const PROGRAMS: [(&str, bool); 10] = [
    ("vector_add", false),
    ("reduction", false),
    ("warp", false),
    ("atomics", false),
    ("symbols", false),
    ("templates", false),
    ("streams", false),
    ("attributes", false),
    ("peer", true),
    ("printf", false),
];

/// Each preset, the file-name suffix of the build carrying its chip's
/// code, and whether it has two GPUs.
const PRESETS: [(&str, &str, bool); 3] = [
    ("mi300x-8", "", true),
    ("w7900", "", false),
    ("mi250x-4", ".gfx90a", true),
];

/// The registration's objects: modules, fat binaries and managed memory,
/// all released at exit.
const REGISTRATION: [&str; 3] = ["hip_modules", "hip_fat_binaries", "host_allocations"];

/// Runs `fixtures/hip/FILE` on `machine` with `env` besides the library
/// and the report.
fn run(file: &str, machine: &str, env: &[(&str, &str)]) -> Run {
    let program = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/hip")
        .join(file);
    program_run::run(&program, "hip-programs", machine, env)
}

#[test]
fn every_program_passes_on_every_preset_it_has_code_for() {
    let mut ran = 0;
    for (name, needs_two) in PROGRAMS {
        for (machine, suffix, two) in PRESETS {
            if needs_two && !two {
                continue;
            }
            let run = run(&format!("{name}{suffix}"), machine, &[]);
            let what = format!("{name}{suffix} on {machine}\n{}", run.show());
            assert!(run.output.status.success(), "{what}");
            assert!(run.stdout().contains(&format!("PASS {name}")), "{what}");
            let launches = run.value("launches");
            assert!(launches >= 1, "{what}");
            assert_eq!(run.value("launches_executed"), launches, "{what}");
            assert_eq!(run.value("launches_faulted"), 0, "{what}");
            run.none_alive(&REGISTRATION);
            for key in ["allocations", "hip_streams", "hip_events"] {
                assert_eq!(run.value(key), 0, "{key}: {what}");
            }
            ran += 1;
        }
    }
    assert_eq!(ran, 29);
}

/// Device-side `printf` through the hostcall buffer (clang-19's and ROCm
/// 5's hipcc's form): the program compares its captured stdout with its
/// host's `snprintf`; here the lines are checked as written by hand.
#[test]
fn device_printf_prints_each_work_items_line_on_the_host() {
    for (machine, suffix) in [("w7900", ""), ("mi300x-8", ""), ("mi250x-4", ".gfx90a")] {
        let run = run(&format!("printf{suffix}"), machine, &[]);
        let what = format!("printf{suffix} on {machine}\n{}", run.show());
        assert!(run.output.status.success(), "{what}");
        let stdout = run.stdout();
        // gid 1: i = -1000, u = 4000000001, x = 0x1111, ll = (1 + 3) << 40,
        // d = 0.25, f = 1/3 as a float, c = 'b', width 2; gid 64: ll = 67 << 40,
        // width 5.
        for line in [
            "item   1 of block 0: i=-1000 u=4000000001 x=0x1111 ll=4398046511104 d=0.250 \
             f=3.333333e-01 c=b s=an odd work-item w=[ 1]",
            "item   0 of block 1: i=-64000 u=4000000064 x=0x44440 ll=73667279060992 d=16.000 \
             f=2.133333e+01 c=m s=an even work-item, longer w=[   64]",
            "block 0 done",
            "block 1 done",
        ] {
            assert_eq!(
                stdout.lines().filter(|l| *l == line).count(),
                1,
                "{line}\n{what}"
            );
        }
        assert_eq!(stdout.lines().count(), 2 * 64 + 2 + 1, "{what}");
        assert!(stdout.ends_with("PASS printf\n"), "{what}");
    }
}

/// `vector_add.compressed`: clang-19's `--offload-compress` build of
/// `vector_add`, its fat binary a compressed bundle (`CCOB` version 2,
/// zstd), registered, decompressed and run where it carries code; on
/// gfx90a its launch is `hipErrorNoBinaryForGpu` as the uncompressed one's.
#[test]
fn a_program_with_a_compressed_fat_binary_runs() {
    for machine in ["w7900", "mi300x-8"] {
        let run = run("vector_add.compressed", machine, &[]);
        let what = format!("on {machine}\n{}", run.show());
        assert!(run.output.status.success(), "{what}");
        assert!(run.stdout().contains("PASS vector_add"), "{what}");
        assert_eq!(run.value("launches_executed"), 1, "{what}");
        run.none_alive(&REGISTRATION);
    }
    let run = run("vector_add.compressed", "mi250x-4", &[]);
    assert_eq!(run.output.status.code(), Some(1), "{}", run.show());
    assert!(
        run.stderr().contains("hipErrorNoBinaryForGpu"),
        "{}",
        run.show()
    );
}

/// `vector_add` carries gfx942 and gfx1100 code: on gfx90a its launch is
/// `hipErrorNoBinaryForGpu`, which the program reports and exits 1.
#[test]
fn a_program_without_code_for_the_device_sees_no_binary_for_gpu() {
    let run = run("vector_add", "mi250x-4", &[]);
    assert_eq!(run.output.status.code(), Some(1), "{}", run.show());
    assert!(
        run.stderr().contains("hipErrorNoBinaryForGpu"),
        "{}",
        run.show()
    );
    assert!(!run.stdout().contains("PASS"), "{}", run.show());
    assert_eq!(run.value("launches"), 0);
    run.none_alive(&REGISTRATION);
}

/// A kernel that faults (`kernel@1`): by default the process aborts, as
/// ROCm's fault handler does; under `AMDGPU_SIM_ON_FAULT=report` the
/// program's synchronization answers `hipErrorIllegalAddress` and it exits 1.
#[test]
fn a_faulting_kernel_ends_the_program_with_the_hip_error() {
    for (machine, suffix) in [("w7900", ""), ("mi250x-4", ".gfx90a")] {
        let file = format!("vector_add{suffix}");
        let aborted = run(&file, machine, &[("AMDGPU_SIM_FAULTS", "kernel@1")]);
        assert_eq!(
            aborted.output.status.signal(),
            Some(libc_sigabrt()),
            "{}",
            aborted.show()
        );
        assert!(!aborted.stdout().contains("PASS"), "{}", aborted.show());
        let reported = run(
            &file,
            machine,
            &[
                ("AMDGPU_SIM_FAULTS", "kernel@1"),
                ("AMDGPU_SIM_ON_FAULT", "report"),
            ],
        );
        assert_eq!(
            reported.output.status.code(),
            Some(1),
            "{}",
            reported.show()
        );
        assert!(
            reported.stderr().contains("hipErrorIllegalAddress"),
            "{}",
            reported.show()
        );
        assert!(!reported.stdout().contains("PASS"), "{}", reported.show());
        assert_eq!(reported.value("launches_faulted"), 1);
        reported.none_alive(&REGISTRATION);
    }
}

/// `SIGABRT` (6 on Linux).
fn libc_sigabrt() -> i32 {
    6
}

/// A failure injected into each new entry point `symbols` calls (its
/// first call of it): the program sees a HIP error (the injected one, or
/// the error of what the failed registration left unregistered) and
/// exits 1, and the registration leaks nothing.
#[test]
fn an_injected_failure_of_each_new_entry_point_is_a_hip_error_the_program_sees() {
    let cases = [
        ("__hipRegisterFatBinary", "hipErrorOutOfMemory"),
        ("__hipRegisterFunction", "hipErrorOutOfMemory"),
        ("__hipRegisterVar", "hipErrorOutOfMemory"),
        ("__hipRegisterManagedVar", "hipErrorOutOfMemory"),
        ("hipLaunchKernel", "hipErrorOutOfMemory"),
        ("hipMemcpyToSymbol", "hipErrorOutOfMemory"),
        ("hipMemcpyFromSymbol", "hipErrorOutOfMemory"),
        ("hipMemcpyToSymbolAsync", "hipErrorOutOfMemory"),
        ("hipMemcpyFromSymbolAsync", "hipErrorOutOfMemory"),
        ("hipGetSymbolAddress", "hipErrorOutOfMemory"),
        ("hipGetSymbolSize", "hipErrorOutOfMemory"),
    ];
    for (machine, suffix) in [("mi300x-8", ""), ("mi250x-4", ".gfx90a")] {
        for (op, error) in cases {
            let fault = format!("{op}@1=2");
            let run = run(
                &format!("symbols{suffix}"),
                machine,
                &[("AMDGPU_SIM_FAULTS", &fault)],
            );
            let what = format!("{fault} on {machine}\n{}", run.show());
            assert_eq!(run.output.status.code(), Some(1), "{what}");
            assert!(!run.stdout().contains("PASS"), "{what}");
            assert!(run.stderr().contains(error), "{what}");
            assert!(
                run.report
                    .contains(&format!("injected {op} -> 2 hipErrorOutOfMemory")),
                "{what}"
            );
            run.none_alive(&REGISTRATION);
        }
    }
}
