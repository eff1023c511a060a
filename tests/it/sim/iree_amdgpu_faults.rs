//! Every HSA call of IREE's AMDGPU driver failed in turn: a device creation
//! with an executable load (`executable_probe`, built from IREE's source
//! with the driver), one CTS dispatch test, and one of the driver's PM4
//! command-buffer tests (register writes and `DISPATCH_DIRECT`), on w7900. Each HSA call the
//! clean run makes is failed once (`AMDGPU_SIM_FAULTS=hsa@N=...`), and for
//! the device creation also from then on (`hsa@N+`); every run must end
//! with IREE's error or success and the library's report must show nothing
//! alive — except where IREE itself is at fault ([`IREE_DEFECTS`], each read
//! in IREE's source and written up in docs/IREE-DEFECTS.md).
//!
//! Needs IREE's build (`iree_build`); without it the test prints one line and
//! passes, unless `AMDGPU_HAL_REQUIRE_ALL=1`.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use super::faulted_run::{self, Outcome, Run};
use super::iree_build::{built, hsa_library_dir, root};

const WHAT: &str = "the HSA fault sweep through IREE's AMDGPU driver";
/// The machine: one GPU keeps the number of calls, and runs, small.
const MACHINE: &str = "w7900";
/// `HSA_STATUS_ERROR_OUT_OF_RESOURCES`, what each injected failure returns.
const INJECTED: &str = "0x1008";
/// How long a run may take before it counts as hung (a clean run takes
/// well under a second).
const HANG_AFTER: Duration = Duration::from_secs(30);
/// The CTS test whose HSA calls are swept.
const DISPATCH_TEST: &str = "CTS/DispatchConstantsTest.DispatchWithDispatchConstants/amdgpu_amdgpu";
/// The driver test whose HSA calls are swept: a reusable PM4 command buffer
/// of two dispatches, executed and checked.
const PM4_TEST: &str =
    "HostQueueCommandBufferTest.Pm4DispatchUsesResidentPrepublishedCommandBuffer";

/// Defects of IREE's AMDGPU driver that an injected HSA failure exposes:
/// (what and where, the HSA calls whose failure reaches it, the outcome).
const IREE_DEFECTS: &[(&str, &[&str], Outcome)] = &[(
    "host_queue.c:366-374 (docs/IREE-DEFECTS.md, 7): a completion wait that \
     returns without a satisfied signal stops the queue's completion thread \
     after one drain; work that completes later is never retired, so what it \
     retains (the command buffer's executable and buffers) stays alive",
    &["hsa_amd_signal_wait_any"],
    Outcome::Leak,
)];

/// Releases whose failure keeps what they release alive, and the report
/// key that then shows it (as HSA says: a failed release released nothing).
const RELEASE_CALLS: &[(&str, &str)] = &[
    ("hsa_signal_destroy", "hsa_signals"),
    ("hsa_amd_memory_pool_free", "allocations"),
    ("hsa_queue_destroy", "hsa_queues"),
    ("hsa_executable_destroy", "executables"),
    ("hsa_code_object_reader_destroy", "readers"),
    ("hsa_amd_vmem_handle_release", "vmem_handles"),
    ("hsa_amd_vmem_address_free", "vmem_reservations"),
    ("hsa_amd_vmem_unmap", "vmem_mappings"),
    ("hsa_amd_memory_unlock", "hsa_locked"),
];

/// Whether `leaks` is exactly the one object a failed `op` keeps (an
/// allocation with its bytes; an executable with its loaded images).
fn kept_by_failed_release(op: &str, leaks: &[(&str, u64)]) -> bool {
    let Some((_, key)) = RELEASE_CALLS.iter().find(|(release, _)| *release == op) else {
        return false;
    };
    let extra = ["allocated_bytes", "image_mappings", "shared_images"];
    leaks.iter().any(|(k, v)| k == key && *v == 1)
        && leaks.iter().all(|(k, _)| k == key || extra.contains(k))
}

/// Runs `program args` on [`MACHINE`] with `faults` armed.
fn run(program: &Path, args: &[String], libdir: &Path, faults: Option<&str>) -> Run {
    let dir = std::env::temp_dir().join(format!("amdgpu-iree-amdgpu-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let report = dir.join(format!(
        "report-{}-{}",
        program.file_name().unwrap().to_string_lossy(),
        faults.unwrap_or("none").replace(['@', '=', '+'], "_")
    ));
    let mut command = Command::new(program);
    command
        .args(args)
        .env("AMDGPU_SIM_MACHINE", MACHINE)
        .env("IREE_HAL_AMDGPU_LIBHSA_PATH", libdir)
        .env("LD_PRELOAD", libdir.join("libamdgpu_sim_kfd.so"))
        .env_remove("AMDGPU_SIM_FAULTS");
    if let Some(f) = faults {
        command.env("AMDGPU_SIM_FAULTS", f);
    }
    faulted_run::run(command, &report, HANG_AFTER)
}

/// Fails every HSA call of `program args`'s clean run in turn (once, and
/// from then on when `persistent`); the runs no known IREE defect explains,
/// and the count of runs per outcome.
fn sweep(
    program: &Path,
    args: &[String],
    libdir: &Path,
    persistent: bool,
) -> (Vec<String>, BTreeMap<String, usize>) {
    let clean = run(program, args, libdir, None);
    assert_eq!(
        clean.outcome(),
        Outcome::Clean,
        "{}: the clean run: {:?} leaks {:?}\n{}",
        program.display(),
        clean.status,
        clean.leaks(),
        clean.stderr
    );
    let calls = clean.report["hsa_calls"];
    let mut specs: Vec<String> = (1..=calls).map(|n| format!("hsa@{n}={INJECTED}")).collect();
    if persistent {
        specs.extend((1..=calls).map(|n| format!("hsa@{n}+={INJECTED}")));
    }
    let results: Vec<(String, Run)> = std::thread::scope(|scope| {
        let handles: Vec<_> = specs
            .chunks(specs.len().div_ceil(2).max(1))
            .map(|chunk| {
                scope.spawn(move || {
                    chunk
                        .iter()
                        .map(|spec| (spec.clone(), run(program, args, libdir, Some(spec))))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    let mut counts = BTreeMap::new();
    let mut unexplained = Vec::new();
    for (spec, r) in &results {
        let outcome = r.outcome();
        let injected = r.injected_ops();
        let op = injected.first().copied().unwrap_or("<none>");
        // A persistent fault spares later releases, so the first failed
        // call is the one whose object may stay.
        let released = outcome == Outcome::Leak && kept_by_failed_release(op, &r.leaks());
        let key = match outcome {
            Outcome::Clean => "clean".to_string(),
            _ if released => "kept by a failed release".to_string(),
            other => format!("{other:?} after {op}"),
        };
        *counts.entry(key).or_default() += 1;
        if outcome == Outcome::Clean || released {
            continue;
        }
        let explained = IREE_DEFECTS.iter().any(|(_, ops, allowed)| {
            *allowed == outcome && injected.iter().any(|op| ops.contains(op))
        });
        if !explained {
            let tail: Vec<&str> = r
                .stderr
                .lines()
                .filter(|l| !l.starts_with("amdgpu-sim: "))
                .collect();
            let tail = tail[tail.len().saturating_sub(6)..].join(" | ");
            unexplained.push(format!(
                "{}: {spec}: {outcome:?} after {op} (status {:?}, leaks {:?}): {tail}",
                program.file_name().unwrap().to_string_lossy(),
                r.status,
                r.leaks(),
            ));
        }
    }
    (unexplained, counts)
}

fn fixture() -> PathBuf {
    root().join("fixtures/iree/elementwise.gfx1100.hsaco")
}

#[test]
fn failing_every_hsa_call_in_turn_ends_in_an_iree_error_with_nothing_alive() {
    let Some(work) = built(WHAT) else {
        return;
    };
    let libdir = hsa_library_dir();
    let probe = work.join("executable_probe");
    let cts = work.join("bin-amdgpu/cts_dispatch_gfx1100_tests");
    let pm4 = work.join("bin-amdgpu/gfx1100_host_queue_command_buffer_test");
    let clients = [
        (probe, vec![fixture().display().to_string()], true),
        (cts, vec![format!("--gtest_filter={DISPATCH_TEST}")], false),
        (pm4, vec![format!("--gtest_filter={PM4_TEST}")], false),
    ];
    let mut problems = Vec::new();
    for (program, args, persistent) in &clients {
        let (unexplained, counts) = sweep(program, args, &libdir, *persistent);
        let runs: usize = counts.values().sum();
        let _ = writeln!(
            std::io::stderr(),
            "{}: {runs} faulted runs: {counts:?}",
            program.file_name().unwrap().to_string_lossy()
        );
        problems.extend(unexplained);
    }
    assert!(
        problems.is_empty(),
        "{} runs end in a way no known IREE defect explains:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
