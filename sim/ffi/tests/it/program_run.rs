//! Running a program built against HIP (a fixture of `fixtures/hip` or
//! `fixtures/rocm-libs`) against this library, and reading what it left:
//! its output and the library's report.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// The simulator's settings a test's environment may carry: each run
/// starts without them, then takes the ones its test names.
const SETTINGS: [&str; 5] = [
    "AMDGPU_SIM_FAULTS",
    "AMDGPU_SIM_ON_FAULT",
    "AMDGPU_SIM_TRACE",
    "AMDGPU_SIM_KERNELS",
    "AMDGPU_SIM_STREAMS",
];

/// A folder holding `libamdhip64.so.5`, a link to the library cargo built
/// beside this test binary (found before Debian's own by the loader).
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
pub(crate) struct Run {
    pub(crate) output: Output,
    pub(crate) report: String,
}

impl Run {
    pub(crate) fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.output.stdout).into_owned()
    }

    pub(crate) fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.output.stderr).into_owned()
    }

    /// Everything a failure message needs, the report's per-kernel lines
    /// left out (a ROCm library registers thousands).
    pub(crate) fn show(&self) -> String {
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
    pub(crate) fn value(&self, key: &str) -> u64 {
        self.report
            .lines()
            .find_map(|line| line.strip_prefix(key)?.strip_prefix(' ')?.parse().ok())
            .unwrap_or_else(|| panic!("no `{key}` in the report\n{}", self.show()))
    }

    /// Asserts the report counts none of `keys` alive at exit.
    pub(crate) fn none_alive(&self, keys: &[&str]) {
        for key in keys {
            assert_eq!(self.value(key), 0, "{key}\n{}", self.show());
        }
    }
}

/// Runs `program` on `machine` with `env` besides the library and the
/// report, which is kept in `CARGO_TARGET_TMPDIR/REPORTS/`.
pub(crate) fn run(program: &Path, reports: &str, machine: &str, env: &[(&str, &str)]) -> Run {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(reports);
    std::fs::create_dir_all(&dir).expect("report folder");
    let tag: String = env
        .iter()
        .flat_map(|(k, v)| [k, v])
        .flat_map(|s| s.chars())
        .filter(char::is_ascii_alphanumeric)
        .collect();
    let name = program
        .file_name()
        .expect("a program file")
        .to_string_lossy();
    let report = dir.join(format!("{name}-{machine}-{tag}.report"));
    let _ = std::fs::remove_file(&report);
    let mut command = Command::new(program);
    for name in SETTINGS {
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
