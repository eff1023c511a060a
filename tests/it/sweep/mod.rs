//! The fault-sweep harness: one creation path, run on a fresh simulated
//! node once to count its backend calls, then again for every call N with
//! call N failing — once (transient) or from then on for that operation
//! (persistent) — asserting each time that
//!
//! - the failure surfaces as a `Status` with the injected code (not merely
//!   "an error"), or, for a failed release inside a teardown that cannot
//!   report, that the object it could not release is the only thing left;
//! - nothing is left behind: no allocation, reader or executable beyond those
//!   whose release was the injected failure, no loaded code-object image
//!   mapped without a live executable or module to own it, no `hsa_init` reference beyond
//!   a failed `hsa_shut_down`, and HIP state (peer access, current device)
//!   exactly what the successful calls before the failure set (HIP has no
//!   way to undo them; IREE never does);
//! - whatever the path checks itself (e.g. no device left half-assigned).
//!
//! `sweep` returns the numbers docs/FUZZING.md tabulates.
#![allow(dead_code)]

use std::sync::Arc;

use amdgpu_hal::backend::Backend;
use amdgpu_hal::{Status, StatusCode};
use amdgpu_sim::{CallRecord, Fault, HipCode, HsaCode, LiveObjects, Machine, Sim};

/// Which API family a sweep fails: every HSA call, or every HIP call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// HSA (and the AMD loader extension).
    Hsa,
    /// HIP.
    Hip,
}

impl Family {
    /// The vendor status name the injected failure renders as.
    pub fn injected_name(self) -> &'static str {
        match self {
            Family::Hsa => "HSA_STATUS_ERROR_OUT_OF_RESOURCES",
            Family::Hip => "hipErrorOutOfMemory",
        }
    }

    /// The IREE code both injected statuses map to.
    pub fn injected_code(self) -> StatusCode {
        StatusCode::ResourceExhausted
    }

    fn is_member(self, op: &str) -> bool {
        match self {
            Family::Hsa => op.starts_with("hsa_"),
            Family::Hip => op.starts_with("hip"),
        }
    }

    fn arm(self, sim: &Sim, fault: Fault<()>) {
        let Fault {
            trigger,
            persistent,
            ..
        } = fault;
        match self {
            Family::Hsa => sim.inject_hsa(Fault {
                trigger,
                code: HsaCode::OUT_OF_RESOURCES,
                persistent,
            }),
            Family::Hip => sim.inject_hip(Fault {
                trigger,
                code: HipCode::OUT_OF_MEMORY,
                persistent,
            }),
        }
    }

    fn calls(self, sim: &Sim) -> u64 {
        match self {
            Family::Hsa => sim.hsa_call_count(),
            Family::Hip => sim.hip_call_count(),
        }
    }
}

/// A fresh simulated node: the simulator (call log on) and a backend over it.
pub struct Node {
    /// The simulator, for faults, the call log and live objects.
    pub sim: Arc<Sim>,
    /// The backend the HAL code runs on.
    pub backend: Backend,
}

impl Node {
    /// A node running `machine`.
    pub fn new(machine: &Machine) -> Node {
        let sim = Arc::new(Sim::new(machine.clone()));
        let backend = Backend::from_sim(Arc::clone(&sim), &machine.name);
        Node { sim, backend }
    }
}

/// One creation path: real HAL code from nothing to teardown (every object
/// it creates is dropped before it returns).
pub struct Path {
    /// What the table calls it.
    pub name: &'static str,
    /// The families swept.
    pub families: &'static [Family],
    /// Calls whose failure the path deliberately survives (each with its
    /// reason where the path is defined): a run that succeeds although one
    /// of these failed is counted as tolerated, not as a swallowed failure.
    pub tolerated: &'static [&'static str],
    /// Runs the path on a node.
    pub run: fn(&Node) -> Result<(), Status>,
}

/// What one sweep of a path on one preset found.
#[derive(Clone, Debug, Default)]
pub struct SweepReport {
    /// Backend calls of the swept family the unfaulted run makes.
    pub calls: u64,
    /// Runs with a fault (2 per call: transient and persistent).
    pub runs: u64,
    /// Runs that returned the injected status.
    pub failed_cleanly: u64,
    /// Runs that succeeded because only a teardown release failed.
    pub teardown_only: u64,
    /// Runs that succeeded because only a tolerated call failed.
    pub tolerated: u64,
    /// Objects left alive beyond the releases that failed, HIP state not
    /// accounted for by the calls made: the sweep asserts this stays 0.
    pub leaks: u64,
    /// Whether the unfaulted run succeeds on this preset (else its own
    /// failure is swept up to the point it fails).
    pub baseline_ok: bool,
}

/// The calls that release an object, and which count of [`LiveObjects`]
/// a failure of theirs leaves one higher.
fn released_by(op: &str) -> Option<fn(&mut LiveObjects)> {
    match op {
        "hsa_amd_memory_pool_free" => Some(|l| l.allocations += 1),
        "hsa_executable_destroy" => Some(|l| l.executables += 1),
        "hsa_code_object_reader_destroy" => Some(|l| l.readers += 1),
        "hsa_shut_down" => Some(|l| l.hsa_init_refs += 1),
        _ => None,
    }
}

/// What the call log says must be live: one object per failed release, and
/// the HIP state the successful peer-access and set-device calls set.
fn accounted(log: &[CallRecord]) -> LiveObjects {
    let mut expected = LiveObjects::default();
    let mut peers = std::collections::BTreeSet::new();
    for record in log {
        let ok = !record.injected && record.outcome.starts_with("ok");
        match record.op {
            "hipSetDevice" if ok => {
                expected.hip_current_device = record.args.trim().parse().unwrap_or(0);
            }
            "hipDeviceEnablePeerAccess" if ok => {
                let peer: i32 = record
                    .args
                    .split(',')
                    .next()
                    .and_then(|p| p.trim().parse().ok())
                    .unwrap_or(-1);
                peers.insert((expected.hip_current_device, peer));
            }
            op if record.injected => {
                if let Some(bump) = released_by(op) {
                    bump(&mut expected);
                }
            }
            _ => {}
        }
    }
    expected.hip_peer_access = peers.len() as u64;
    expected
}

/// Compares what is live with what the log accounts for (bytes aside: a
/// leaked allocation's size is whatever it was). Returns the unaccounted
/// objects and a description.
fn unaccounted(live: &LiveObjects, expected: &LiveObjects) -> (u64, String) {
    let extra = |a: u64, b: u64| a.abs_diff(b);
    let leaks = extra(live.allocations, expected.allocations)
        + extra(live.readers, expected.readers)
        + extra(live.executables, expected.executables)
        + extra(
            u64::from(live.hsa_init_refs),
            u64::from(expected.hsa_init_refs),
        )
        + extra(live.hip_peer_access, expected.hip_peer_access)
        + u64::from(live.hip_current_device != expected.hip_current_device);
    (leaks, format!("live {live:?}, accounted {expected:?}"))
}

/// Loaded code-object images left mapped: a mapping no loaded code object
/// or module owns, or any mapping once no executable or module is live (a
/// failed `hsa_executable_destroy` keeps its executable's mappings, as ROCr
/// does). Returns the count and a description.
fn unaccounted_images(sim: &Sim) -> (u64, String) {
    let images = sim.image_usage();
    let live = sim.live_objects();
    let orphaned = if live.executables == 0 && live.hip_modules == 0 {
        images.mappings + images.shared_images
    } else {
        0
    };
    (
        images.unowned_mappings + orphaned,
        format!("images {images:?} with {live:?}"),
    )
}

/// Sweeps `path` for `family` on `machine`: the unfaulted run first, then
/// every call transient and persistent. Panics with every finding.
pub fn sweep(path: &Path, family: Family, machine: &Machine) -> SweepReport {
    let probe = Node::new(machine);
    let baseline = (path.run)(&probe);
    let (probe_log, dropped) = probe.sim.call_log();
    assert_eq!(dropped, 0, "{}: call log overflowed", path.name);
    let ops: Vec<&'static str> = probe_log
        .iter()
        .map(|r| r.op)
        .filter(|op| family.is_member(op))
        .collect();
    let calls = family.calls(&probe.sim);
    assert_eq!(
        calls,
        ops.len() as u64,
        "{}: call log and count disagree",
        path.name
    );
    let (leaks, detail) = unaccounted(&probe.sim.live_objects(), &accounted(&probe_log));
    assert_eq!(
        leaks, 0,
        "{} on {}: the unfaulted run leaks: {detail}",
        path.name, machine.name
    );
    let (leaks, detail) = unaccounted_images(&probe.sim);
    assert_eq!(
        leaks, 0,
        "{} on {}: the unfaulted run leaves images mapped: {detail}",
        path.name, machine.name
    );
    let mut report = SweepReport {
        calls,
        baseline_ok: baseline.is_ok(),
        ..SweepReport::default()
    };
    // Where the unfaulted run fails on its own, a fault in the cleanup after
    // that failure is joined into it: the run keeps its own code.
    let baseline_code = baseline.as_ref().err().map(Status::code);
    let mut findings = Vec::new();
    for (index, op) in ops.iter().enumerate() {
        let n = index as u64 + 1;
        // The how-many-th call of its operation call n is, for the
        // persistent fault that keeps failing that operation.
        let nth_of_op = ops[..=index].iter().filter(|o| *o == op).count() as u64;
        for persistent in [false, true] {
            let node = Node::new(machine);
            let fault = if persistent {
                Fault::nth_of(op, nth_of_op, ()).persistent()
            } else {
                Fault::nth_call(n, ())
            };
            family.arm(&node.sim, fault);
            let result = (path.run)(&node);
            report.runs += 1;
            let (log, _) = node.sim.call_log();
            let injected: Vec<&str> = log.iter().filter(|r| r.injected).map(|r| r.op).collect();
            let mode = if persistent {
                "persistent"
            } else {
                "transient"
            };
            let at = format!("{} on {}: {mode} {op} (call {n})", path.name, machine.name);
            if injected.is_empty() {
                findings.push(format!("{at}: the fault never fired"));
                continue;
            }
            match &result {
                Err(status)
                    if status.mentions(family.injected_name())
                        && (status.code() == family.injected_code()
                            || Some(status.code()) == baseline_code) =>
                {
                    report.failed_cleanly += 1;
                }
                Err(status) => findings.push(format!(
                    "{at}: expected {:?} naming {}, got {status}",
                    family.injected_code(),
                    family.injected_name()
                )),
                Ok(()) if injected.iter().all(|op| released_by(op).is_some()) => {
                    report.teardown_only += 1;
                }
                Ok(()) if injected.iter().all(|op| path.tolerated.contains(op)) => {
                    report.tolerated += 1;
                }
                Ok(()) => findings.push(format!("{at}: the failure was swallowed ({injected:?})")),
            }
            let (leaks, detail) = unaccounted(&node.sim.live_objects(), &accounted(&log));
            if leaks > 0 {
                report.leaks += leaks;
                findings.push(format!("{at}: {detail}"));
            }
            let (leaks, detail) = unaccounted_images(&node.sim);
            if leaks > 0 {
                report.leaks += leaks;
                findings.push(format!("{at}: {detail}"));
            }
        }
    }
    assert!(
        findings.is_empty(),
        "{} findings:\n{}",
        findings.len(),
        findings.join("\n")
    );
    report
}

/// The presets the sweeps run on: one of each shape (all-to-all xGMI,
/// mixed xGMI, one dGPU, mixed ISAs, no GPU). The later presets repeat
/// these shapes with other boards' facts, and a sweep over each would
/// multiply its (long) run for no new path.
pub const SWEPT_PRESETS: [&str; 5] = ["mi300x-8", "mi250x-4", "w7900", "mixed-isa", "cpu-only"];

/// The swept preset machines, parsed once.
pub fn presets() -> Vec<Machine> {
    SWEPT_PRESETS
        .iter()
        .map(|name| {
            amdgpu_sim::presets::load_preset(name)
                .expect("a preset")
                .expect("presets are valid")
        })
        .collect()
}
