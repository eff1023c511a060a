//! One run of an IREE client on the C library with faults armed, as the
//! fault sweeps (`iree_client`: HIP, `iree_amdgpu_faults`: HSA) judge it:
//! how it ended, what the library's report shows alive, which calls the
//! fault failed.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// Exit 0 or 1, nothing left alive.
    Clean,
    /// Exit 0 or 1 with objects left alive.
    Leak,
    /// A signal, or another exit status (IREE's crash handler's).
    Crash,
    /// Still running after its hang limit.
    Hang,
    /// Either of the two (an allowance only).
    HangOrCrash,
}

impl Outcome {
    /// Whether an allowance of `self` covers `outcome`.
    pub(crate) fn allows(self, outcome: Outcome) -> bool {
        self == outcome
            || (self == Outcome::HangOrCrash && matches!(outcome, Outcome::Hang | Outcome::Crash))
    }
}

/// A finished (or killed) run.
pub(crate) struct Run {
    /// `None`: killed after its hang limit.
    pub(crate) status: Option<ExitStatus>,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
    /// `AMDGPU_SIM_REPORT`'s `key value` lines.
    pub(crate) report: BTreeMap<String, u64>,
}

impl Run {
    pub(crate) fn exit_code(&self) -> Option<i32> {
        self.status.and_then(|s| s.code())
    }

    pub(crate) fn outcome(&self) -> Outcome {
        match self.exit_code() {
            None if self.status.is_none() => Outcome::Hang,
            Some(0 | 1) if self.leaks().is_empty() => Outcome::Clean,
            Some(0 | 1) => Outcome::Leak,
            _ => Outcome::Crash,
        }
    }

    /// Live objects in the report (every count but the call, launch,
    /// read-back and instruction tallies).
    pub(crate) fn leaks(&self) -> Vec<(&str, u64)> {
        if self.report.is_empty() {
            return vec![("no report written", 1)];
        }
        self.report
            .iter()
            .filter(|(k, v)| {
                **v != 0
                    && !k.ends_with("_calls")
                    && !k.starts_with("launches")
                    && !k.starts_with("instructions")
                    && !k.starts_with("read_back_")
            })
            .map(|(k, v)| (k.as_str(), *v))
            .collect()
    }

    /// The calls the fault failed, in order, from the call trace
    /// (`AMDGPU_SIM_TRACE`): one for `OP@N`, every later call but the
    /// releases for `OP@N+`.
    pub(crate) fn injected_ops(&self) -> Vec<&str> {
        self.stderr
            .lines()
            .filter(|l| l.ends_with("[injected]"))
            .filter_map(|l| l.strip_prefix("amdgpu-sim: "))
            .filter_map(|l| l.split('(').next())
            .collect()
    }
}

/// Runs `command` (its environment set by the caller) with the call trace
/// on and the report written to `report`, killing it after `hang_after`.
pub(crate) fn run(mut command: Command, report: &Path, hang_after: Duration) -> Run {
    let _ = std::fs::remove_file(report);
    command
        .env("AMDGPU_SIM_REPORT", report)
        .env("AMDGPU_SIM_TRACE", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = command.spawn().expect("spawn the client");
    // Drain the pipes on threads so a chatty child cannot block on them.
    let drain = |mut pipe: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut s = String::new();
            let _ = pipe.read_to_string(&mut s);
            s
        })
    };
    let out = drain(Box::new(child.stdout.take().unwrap()));
    let err = drain(Box::new(child.stderr.take().unwrap()));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if start.elapsed() > hang_after {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let report = std::fs::read_to_string(report)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.split_once(' '))
        .filter_map(|(k, v)| Some((k.to_string(), v.parse().ok()?)))
        .collect();
    Run {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
        report,
    }
}
