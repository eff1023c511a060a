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
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

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

/// A folder holding `libamdhip64.so.5`, a link to the library cargo built
/// beside this test binary.
pub(crate) fn library_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let exe = std::env::current_exe().expect("test binary path");
        let built = exe.parent().expect("deps dir").join("libamdgpu_sim_ffi.so");
        assert!(built.exists(), "{} not built", built.display());
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("hip-programs-lib");
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
        )
    }

    /// The report's value for `key` (a test failure when absent).
    fn value(&self, key: &str) -> u64 {
        self.report
            .lines()
            .find_map(|line| line.strip_prefix(key)?.strip_prefix(' ')?.parse().ok())
            .unwrap_or_else(|| panic!("no `{key}` in the report\n{}", self.show()))
    }

    /// Asserts the registration left nothing alive: modules, fat
    /// binaries and managed memory all released at exit.
    fn registration_released(&self) {
        for key in ["hip_modules", "hip_fat_binaries", "host_allocations"] {
            assert_eq!(self.value(key), 0, "{key}\n{}", self.show());
        }
    }
}

/// Runs `fixtures/hip/FILE` on `machine` with `env` besides the library
/// and the report.
fn run(file: &str, machine: &str, env: &[(&str, &str)]) -> Run {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("hip-programs");
    std::fs::create_dir_all(&dir).expect("report folder");
    let tag: String = env
        .iter()
        .flat_map(|(k, v)| [k, v])
        .flat_map(|s| s.chars())
        .filter(char::is_ascii_alphanumeric)
        .collect();
    let report = dir.join(format!("{file}-{machine}-{tag}.report"));
    let _ = std::fs::remove_file(&report);
    let program = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/hip")
        .join(file);
    let mut command = Command::new(&program);
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
        .env("AMDGPU_SIM_MACHINE", machine)
        .env("AMDGPU_SIM_REPORT", &report)
        .envs(env.iter().copied());
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("run {}: {e}", program.display()));
    Run {
        output,
        report: std::fs::read_to_string(&report).unwrap_or_default(),
    }
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
            run.registration_released();
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
        run.registration_released();
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
    run.registration_released();
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
        reported.registration_released();
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
            run.registration_released();
        }
    }
}
