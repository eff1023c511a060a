//! IREE's own runtime as the client of the simulated node: `iree-run-module`
//! from PyPI (`iree-base-runtime==3.13.0`, whose HIP driver is the
//! `hip_driver.c` this project re-implements), unmodified, loads
//! `libamdgpu_sim_ffi.so` as its `libamdhip64` (`--hip_dylib_path`).
//!
//! - IREE lists and dumps exactly the devices and facts `amdgpu-hal` shows
//!   for the same node (`devices --backend hip`, `info`);
//! - every module of `fixtures/iree/vmfb/` runs to completion on each preset
//!   whose GPUs it targets, with the expected kernel launches and nothing left
//!   alive (`AMDGPU_SIM_REPORT`); a data-only module returns its input exactly;
//! - a module for another processor fails at module load with HIP's answer;
//! - every HIP call of a run is failed in turn, once and persistently
//!   (`AMDGPU_SIM_FAULTS`): each run ends with an IREE error or success and
//!   no leak, except where IREE 3.13 itself is at fault ([`IREE_DEFECTS`]).
//!
//! Needs IREE's `iree-run-module` (`pip install iree-base-runtime==3.13.0`),
//! the binary in the package that the `python3` on `PATH` imports (its
//! console script on `PATH` is a wrapper a timeout could not stop); without
//! it each test prints one line saying so and passes, unless
//! `AMDGPU_HAL_REQUIRE_ALL=1`.

use crate::support;

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use super::faulted_run::{self, Outcome, Run};
use support::requires::{Package, requires};

const IREE_VERSION: &str = "3.13.0";
/// How long a run may take before it counts as hung (a normal run takes
/// about 0.2 s; this is a bound for telling a hang from a slow machine).
const HANG_AFTER: Duration = Duration::from_secs(5);

/// (preset, processor of its GPUs' modules).
const PRESETS: &[(&str, &str)] = &[
    ("mi300x-8", "gfx942"),
    ("mi250x-4", "gfx90a"),
    ("w7900", "gfx1100"),
    ("r9700-4", "gfx1201"),
    ("mixed-isa", "gfx90a"),
    ("mi355x-8", "gfx950"),
];

/// (program, function, inputs, kernel launches IREE makes).
const PROGRAMS: &[(&str, &[&str], u64)] = &[
    ("elementwise", &["4096xf32=1", "4096xf32=2"], 1),
    ("matmul", &["128x256xf32=1", "256x64xf32=2"], 1),
    ("multi_dispatch", &["64x128xf32=1", "128x32xf32=1"], 3),
    ("dynamic", &["5xf32=1", "5xf32=2"], 1),
    ("data_move", &["4xi32=1,2,3,4", "3xi32=7,8,9"], 0),
];

/// Defects of IREE 3.13's HIP driver that an injected HIP failure exposes,
/// read in IREE's source (`runtime/src/iree/hal/drivers/hip/`); each lists
/// the HIP calls whose failure reaches it and what the client then does.
const IREE_DEFECTS: &[(&str, &[&str], Outcome)] = &[
    (
        "hip_device.c: a failure while creating the per-device streams and \
         peering runs iree_hal_hip_device_destroy before device->hip_symbols \
         is set, which then calls through the NULL symbol table",
        &[
            "hipDevicePrimaryCtxRetain",
            "hipCtxSetCurrent",
            "hipStreamCreateWithFlags",
            "hipGetDeviceCount",
            "hipDeviceCanAccessPeer",
            "hipDeviceEnablePeerAccess",
            "hipCtxPushCurrent",
        ],
        Outcome::Crash,
    ),
    (
        "event_pool.c: iree_hal_hip_event_pool_allocate counts a slot \
         (available_count++) before hipEventCreateWithFlags fills it, so a \
         failed creation destroys an uninitialized event",
        &["hipEventCreateWithFlags"],
        Outcome::Crash,
    ),
    (
        "cleanup_thread.c / dispatch_thread.c: when an event or context call \
         on the completion path fails, the cleanup thread stops; the \
         semaphores it would signal are never signalled or failed, so the \
         waiter blocks, or the dispatch thread frees through an allocator \
         already torn down (gdb: iree_allocator_free from \
         iree_hal_hip_dispatch_thread_main)",
        &[
            "hipEventQuery",
            "hipEventRecord",
            "hipEventSynchronize",
            "hipCtxPushCurrent",
            "hipCtxPopCurrent",
            "hipCtxSetCurrent",
        ],
        Outcome::HangOrCrash,
    ),
    (
        "a queue operation that fails after its transient buffer was \
         allocated returns the error without freeing the buffer",
        &["hipEventRecord", "hipCtxPopCurrent", "hipCtxPushCurrent"],
        Outcome::Leak,
    ),
];

/// The HIP calls that give an object back, with what a failed one leaves
/// alive: exactly that one object (HIP did not release it, and a client has
/// no second way to), which is the fault's doing, not a leak of IREE's.
const RELEASE_CALLS: &[(&str, &[(&str, u64)])] = &[
    ("hipDevicePrimaryCtxRelease", &[("hip_contexts", 1)]),
    ("hipEventDestroy", &[("hip_events", 1)]),
    ("hipHostFree", &[("host_allocations", 1)]),
    ("hipMemPoolDestroy", &[("hip_pools", 1)]),
    // A module kept alive keeps its image mapped (and the image itself).
    (
        "hipModuleUnload",
        &[
            ("hip_modules", 1),
            ("image_mappings", 1),
            ("shared_images", 1),
        ],
    ),
    ("hipStreamDestroy", &[("hip_streams", 1)]),
];

/// Whether `leaks` is exactly what a failed `op` keeps alive; `hipFree`
/// keeps one allocation of any size.
fn kept_by_failed_release(op: &str, leaks: &[(&str, u64)]) -> bool {
    if op == "hipFree" || op == "hipFreeAsync" {
        return matches!(leaks, [("allocated_bytes", _), ("allocations", 1)]);
    }
    RELEASE_CALLS
        .iter()
        .any(|(release, kept)| *release == op && leaks == *kept)
}

/// What a skip line says these tests need.
pub(crate) const IREE_RUNTIME_PACKAGE: &str = "iree-base-runtime==3.13.0: its iree-run-module, as \
     `python3 -c 'import iree._runtime_libs'` finds it with the python3 on PATH";

/// The `iree-run-module` to use, or `None` after one skip line. The
/// package's binary itself, not its Python console-script wrapper: the
/// wrapper runs it as a child, which a timeout would leave running.
pub(crate) fn iree(what: &str) -> Option<PathBuf> {
    // The skip line names what is looked for: the package's binary, found
    // through the `python3` on `PATH`.
    let package = Package::Pip(IREE_RUNTIME_PACKAGE);
    let found = Command::new("python3")
        .args([
            "-c",
            "import iree._runtime_libs as m, iree._runtime_libs.version as v, os; \
             print(os.path.dirname(m.__file__)); print(v.VERSION)",
        ])
        .stderr(Stdio::null())
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| {
            let text = String::from_utf8(o.stdout).ok()?;
            let mut lines = text.lines();
            let dir = PathBuf::from(lines.next()?);
            let version = lines.next()?.to_string();
            Some((dir.join("iree-run-module"), version))
        })
        .filter(|(binary, _)| binary.is_file());
    if let Some((_, version)) = &found {
        assert!(
            version.starts_with(IREE_VERSION),
            "{what}: iree-base-runtime {version} is installed; these tests pin {package}"
        );
    }
    requires(what, package, found.is_some()).then(|| found.unwrap().0)
}

/// The C library, as Cargo builds it for this test binary.
pub(crate) fn library() -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    let so = exe.parent().expect("deps dir").join("libamdgpu_sim_ffi.so");
    assert!(so.is_file(), "{} is not built", so.display());
    so
}

fn fixture(program: &str, processor: &str) -> String {
    format!(
        "{}/fixtures/iree/vmfb/{program}.{processor}.vmfb",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// Runs `iree-run-module ARGS` on `machine` with `faults` armed.
fn run(iree: &Path, machine: &str, args: &[String], faults: Option<&str>) -> Run {
    run_with(iree, machine, args, faults, &[])
}

/// [`run`] with more environment variables for the library.
fn run_with(
    iree: &Path,
    machine: &str,
    args: &[String],
    faults: Option<&str>,
    env: &[(&str, &str)],
) -> Run {
    let dir = std::env::temp_dir().join(format!(
        "amdgpu-iree-{}-{}",
        std::process::id(),
        std::thread::current()
            .name()
            .unwrap_or("t")
            .replace("::", "-")
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let report = dir.join(format!("report-{machine}-{}", faults.unwrap_or("none")));
    let mut command = Command::new(iree);
    command
        .arg(format!("--hip_dylib_path=file:{}", library().display()))
        .args(args)
        .env("AMDGPU_SIM_MACHINE", machine)
        .env_remove("AMDGPU_SIM_FAULTS")
        .env_remove("AMDGPU_SIM_KERNELS")
        .env_remove("AMDGPU_SIM_ON_FAULT")
        .envs(env.iter().copied());
    if let Some(f) = faults {
        command.env("AMDGPU_SIM_FAULTS", f);
    }
    faulted_run::run(command, &report, HANG_AFTER)
}

fn module_args(program: &str, processor: &str, inputs: &[&str]) -> Vec<String> {
    let mut args = vec![
        "--device=hip://0".to_string(),
        format!("--module={}", fixture(program, processor)),
        format!("--function={program}"),
    ];
    args.extend(inputs.iter().map(|i| format!("--input={i}")));
    args
}

fn hal(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_amdgpu-hal"))
        .args(args)
        .output()
        .expect("run amdgpu-hal");
    assert!(out.status.success(), "amdgpu-hal {args:?}: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn iree_lists_and_dumps_the_devices_amdgpu_hal_shows() {
    let Some(iree) = iree("IREE's --list_devices/--dump_devices on the simulated node") else {
        return;
    };
    for (machine, _) in PRESETS {
        let listed = run(&iree, machine, &["--list_devices".into()], None);
        assert_eq!(listed.exit_code(), Some(0), "{machine}: {}", listed.stderr);
        let iree_paths: Vec<&str> = listed
            .stdout
            .lines()
            .filter(|l| l.starts_with("hip://"))
            .collect();
        let devices: serde_json::Value = serde_json::from_str(&hal(&[
            "devices",
            "--backend",
            "hip",
            "--machine",
            machine,
            "--json",
        ]))
        .unwrap();
        let ours: Vec<String> = devices["agents"]
            .as_array()
            .expect("agents array")
            .iter()
            .map(|d| format!("hip://{}", d["path"].as_str().expect("path")))
            .collect();
        assert_eq!(iree_paths, ours, "{machine}: device paths");

        let dumped = run(&iree, machine, &["--dump_devices=hip".into()], None);
        assert_eq!(dumped.exit_code(), Some(0), "{machine}: {}", dumped.stderr);
        // One block per device, from `# --device=` to the next; the facts are
        // its `- key: value` lines (IREE adds the library path it loaded).
        let blocks: Vec<&str> = dumped.stdout.split("# --device=").skip(1).collect();
        assert_eq!(blocks.len(), ours.len(), "{machine}: dumped devices");
        for (ordinal, block) in blocks.iter().enumerate() {
            let facts = |text: &str| -> Vec<String> {
                text.lines()
                    .filter(|l| l.starts_with("- ") && !l.starts_with("- amdhip64_dylib_path"))
                    .map(str::to_string)
                    .collect()
            };
            let info = hal(&["info", "--machine", machine, &ordinal.to_string()]);
            assert_eq!(
                facts(block),
                facts(&info),
                "{machine}: device {ordinal} facts"
            );
            assert!(
                !facts(block).is_empty(),
                "{machine}: device {ordinal} dumped no facts"
            );
            assert!(
                block.starts_with(&ours[ordinal]),
                "{machine}: block {ordinal} is for {}",
                block.lines().next().unwrap_or_default()
            );
        }
    }
}

/// A kernel that faults never lets IREE's run end in a result: in stream
/// and graph mode, whichever kernel of the run faults (`kernel@N`), the
/// process aborts as on ROCm, after the library's report is written. (With
/// `AMDGPU_SIM_ON_FAULT=report` IREE 3.13's HIP driver hangs or crashes on
/// the fault it is told of: docs/IREE-DEFECTS.md, item 4.)
#[test]
fn a_faulting_kernel_aborts_iree_run_module_in_stream_and_graph_mode() {
    use std::os::unix::process::ExitStatusExt;
    let Some(iree) = iree("a faulting kernel under IREE's iree-run-module") else {
        return;
    };
    let multi: &[&str] = &["64x128xf32=1", "128x32xf32=1"];
    let cases = [
        ("elementwise", &["4096xf32=1", "4096xf32=2"][..], "kernel@1"),
        ("multi_dispatch", multi, "kernel@2"),
        ("multi_dispatch", multi, "kernel@3"),
    ];
    for mode in [None, Some("--hip_use_streams=false")] {
        for (program, inputs, faults) in cases {
            let mut args = module_args(program, "gfx942", inputs);
            args.extend(mode.map(String::from));
            let r = run(&iree, "mi300x-8", &args, Some(faults));
            let what = format!("{program} with {faults} {mode:?}");
            assert_eq!(
                r.status.and_then(|s| s.signal()),
                Some(6),
                "{what}: {:?}\n{}",
                r.status,
                r.stderr
            );
            assert!(
                r.stderr.contains("faulted: memory access fault injected")
                    && r.stderr.contains("aborts the process, as on ROCm"),
                "{what}: {}",
                r.stderr
            );
            assert!(!r.stdout.contains("result[0]"), "{what}: {}", r.stdout);
            assert_eq!(r.report.get("launches_faulted"), Some(&1), "{what}");
        }
    }
}

#[test]
fn skipped_kernels_leave_outputs_uncomputed_and_say_so_once() {
    let Some(iree) = iree("AMDGPU_SIM_KERNELS=skip under IREE's iree-run-module") else {
        return;
    };
    let args = module_args(
        "multi_dispatch",
        "gfx942",
        &["64x128xf32=1", "128x32xf32=1"],
    );
    let r = run_with(
        &iree,
        "mi300x-8",
        &args,
        None,
        &[("AMDGPU_SIM_KERNELS", "skip")],
    );
    assert_eq!(r.exit_code(), Some(0), "{}", r.stderr);
    let notice = "kernels are not executed (AMDGPU_SIM_KERNELS=skip): results are not computed";
    assert_eq!(r.stderr.matches(notice).count(), 1, "{}", r.stderr);
    assert_eq!(r.report.get("launches"), Some(&3));
    assert_eq!(r.report.get("launches_skipped"), Some(&3));
    assert_eq!(r.report.get("launches_executed"), Some(&0));
    // The same run with kernels executing prints other results: the
    // skipped run's are whatever the buffers held.
    let executed = run(&iree, "mi300x-8", &args, None);
    assert_eq!(executed.report.get("launches_executed"), Some(&3));
    assert!(!executed.stderr.contains(notice));
    let results = |stdout: &str| -> Vec<String> {
        stdout
            .lines()
            .filter(|l| l.contains("xf32="))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(results(&r.stdout).len(), 2, "{}", r.stdout);
    assert_ne!(results(&r.stdout), results(&executed.stdout));
}

#[test]
fn iree_runs_every_module_to_completion_on_each_matching_preset() {
    let Some(iree) = iree("IREE's iree-run-module on the simulated node") else {
        return;
    };
    for (machine, processor) in PRESETS {
        for (program, inputs, launches) in PROGRAMS {
            let r = run(
                &iree,
                machine,
                &module_args(program, processor, inputs),
                None,
            );
            let what = format!("{program}.{processor} on {machine}");
            assert_eq!(r.exit_code(), Some(0), "{what}: {}", r.stderr);
            assert!(
                r.stdout.contains(&format!("EXEC @{program}")),
                "{what}: {}",
                r.stdout
            );
            assert_eq!(r.leaks(), vec![], "{what}: left alive");
            assert_eq!(r.report.get("launches"), Some(launches), "{what}: launches");
            assert_eq!(
                r.report.get("launches_executed"),
                Some(launches),
                "{what}: every launch executes its kernel"
            );
            assert!(
                r.report.get("hip_calls").is_some_and(|&n| n > 20),
                "{what}: calls"
            );
        }
    }
}

#[test]
fn a_module_that_only_moves_data_returns_its_input_exactly() {
    let Some(iree) = iree("IREE's data round trip through simulated device memory") else {
        return;
    };
    for (machine, processor) in PRESETS {
        let args = module_args(
            "data_move",
            processor,
            &["4xi32=1,-2,2147483647,4", "3xi32=7,8,9"],
        );
        let r = run(&iree, machine, &args, None);
        assert_eq!(r.exit_code(), Some(0), "{machine}: {}", r.stderr);
        let results: Vec<&str> = r.stdout.lines().filter(|l| l.contains("xi32=")).collect();
        assert_eq!(
            results,
            ["8xi32=1 -2 2147483647 4 0 0 0 0", "3xi32=7 8 9"],
            "{machine}: {}",
            r.stdout
        );
    }
}

#[test]
fn a_module_for_another_processor_fails_at_module_load() {
    let Some(iree) = iree("IREE's module load for a foreign processor") else {
        return;
    };
    for (machine, processor) in [
        ("w7900", "gfx942"),
        ("mi300x-8", "gfx1100"),
        ("mi250x-4", "gfx942"),
    ] {
        let r = run(
            &iree,
            machine,
            &module_args("matmul", processor, &["128x256xf32=1", "256x64xf32=2"]),
            None,
        );
        let what = format!("matmul.{processor} on {machine}");
        assert_eq!(r.exit_code(), Some(1), "{what}: {}", r.stderr);
        for words in [
            "hipErrorNoBinaryForGpu",
            "(209)",
            "hipModuleLoadDataEx",
            "mismatched target chip",
        ] {
            assert!(
                r.stderr.contains(words),
                "{what}: no `{words}` in {}",
                r.stderr
            );
        }
        assert_eq!(r.leaks(), vec![], "{what}: left alive");
        assert_eq!(r.report.get("launches"), Some(&0));
    }
}

/// Fails every HIP call of one run in turn, once (`hip@N`) and from then
/// on (`hip@N+`); returns (runs, outcome counts) after checking each run.
fn sweep(iree: &Path, machine: &str, processor: &str) -> (usize, BTreeMap<String, usize>) {
    let (program, inputs, _) = PROGRAMS[0];
    let args = module_args(program, processor, inputs);
    let clean = run(iree, machine, &args, None);
    assert_eq!(clean.exit_code(), Some(0), "{machine}: {}", clean.stderr);
    let calls = clean.report["hip_calls"];
    let specs: Vec<String> = (1..=calls)
        .flat_map(|n| [format!("hip@{n}=1"), format!("hip@{n}+=1")])
        .collect();
    let results: Vec<(String, Run)> = std::thread::scope(|scope| {
        let chunks: Vec<_> = specs.chunks(specs.len().div_ceil(2)).collect();
        let handles: Vec<_> = chunks
            .into_iter()
            .map(|chunk| {
                let args = &args;
                scope.spawn(move || {
                    chunk
                        .iter()
                        .map(|spec| (spec.clone(), run(iree, machine, args, Some(spec))))
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
        // Any failed call of the run may be the one that reached a defect
        // (a persistent fault fails every later call too).
        let explained = IREE_DEFECTS.iter().any(|(_, ops, allowed)| {
            injected.iter().any(|op| ops.contains(op)) && allowed.allows(outcome)
        });
        if !explained {
            unexplained.push(format!(
                "{spec}: {outcome:?} after {op} (exit {:?}, leaks {:?}): {}",
                r.exit_code(),
                r.leaks(),
                r.stderr
                    .lines()
                    .filter(|l| !l.starts_with("amdgpu-sim:"))
                    .collect::<Vec<_>>()
                    .join(" | ")
            ));
        }
    }
    assert!(
        unexplained.is_empty(),
        "{machine}: {} runs end in a way no known IREE defect explains:\n{}",
        unexplained.len(),
        unexplained.join("\n")
    );
    (results.len(), counts)
}

#[test]
fn failing_every_hip_call_in_turn_ends_in_an_iree_error_never_a_signal_of_ours() {
    let Some(iree) = iree("the HIP fault sweep through IREE's runtime") else {
        return;
    };
    for (machine, processor) in [("w7900", "gfx1100"), ("mi300x-8", "gfx942")] {
        let (runs, counts) = sweep(&iree, machine, processor);
        let _ = writeln!(
            std::io::stderr(),
            "{machine}: {runs} faulted runs: {counts:?}"
        );
        // Most failures must end as HIP says (an IREE error, nothing alive):
        // the sweep tests nothing if IREE's defects swallow it.
        let clean = counts.get("clean").copied().unwrap_or(0)
            + counts.get("kept by a failed release").copied().unwrap_or(0);
        assert!(clean * 2 > runs, "{machine}: {counts:?}");
    }
}
