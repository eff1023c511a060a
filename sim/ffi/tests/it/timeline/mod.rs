//! The timeline (`AMDGPU_SIM_TRACE=chrome:FILE`) of real runs, in child
//! processes of this binary (the variable is read once per process): each
//! file passes the trace-event format's rules ([`format`]) and holds what
//! the run did — the HIP calls on the calling thread with their arguments
//! and outcomes, the copies and the kernel on their streams' tracks (the
//! kernel with its grid, block and the instructions it executed), a call
//! failed by injection and a kernel's fault as instant events, and the
//! file is complete when a kernel fault aborts the process. IREE's own
//! run is traced in [`iree`]; a real consumer reads a file in
//! [`consumer`].

mod consumer;
mod format;
mod iree;

use std::ffi::c_void;
use std::path::PathBuf;
use std::process::Output;

use amdgpu_sys::hip_error::*;
use serde_json::{Value, json};

use crate::kernels::{self, D2H, Handle, N, device_buffer, launch, load, ok};
use format::{Trace, check};

unsafe extern "C" {
    fn hipMalloc(ptr: *mut *mut c_void, size: usize) -> hipError_t;
    fn hipFree(ptr: *mut c_void) -> hipError_t;
    fn hipMemcpy(dst: *mut c_void, src: *const c_void, size: usize, kind: i32) -> hipError_t;
    fn hipStreamCreateWithFlags(stream: *mut Handle, flags: u32) -> hipError_t;
    fn hipStreamDestroy(stream: Handle) -> hipError_t;
    fn hipStreamSynchronize(stream: Handle) -> hipError_t;
    fn hipModuleUnload(module: Handle) -> hipError_t;
}

/// The elementwise kernel's name, as the trace shows it.
pub(crate) const KERNEL: &str = "elementwise_dispatch_0_elementwise_4096_f32";

/// Instructions one wave of the gfx1100 elementwise kernel executes: its
/// code is straight-line, 26 instructions from `s_load_b128` to
/// `s_endpgm` in `llvm-objdump-19 -d --mcpu=gfx1100` of
/// `fixtures/iree/elementwise.gfx1100.hsaco` (a VOPD pair one instruction,
/// `s_delay_alu` one). The launch is 32 blocks of 32 work-items, one wave32
/// each.
pub(crate) const ELEMENTWISE_WAVE_INSTRUCTIONS: u64 = 26;
const ELEMENTWISE_WAVES: u64 = 32;

/// A timeline file for the child `name`, removed once read.
fn trace_file(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!(
        "amdgpu-timeline-{name}-{}.json",
        std::process::id()
    ))
}

/// Reads and checks the timeline at `path` (then removes it).
fn read_trace(path: &PathBuf, output: &Output) -> Trace {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        panic!(
            "no timeline at {} ({e}): {}",
            path.display(),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    let _ = std::fs::remove_file(path);
    check(&text).unwrap_or_else(|e| panic!("the timeline breaks a rule: {e}\n{text}"))
}

/// Whether a call's slice says it succeeded (`ok`, then what it gave
/// back, as the text trace renders outcomes).
pub(crate) fn succeeded(event: &format::Event) -> bool {
    event.args["result"]
        .as_str()
        .is_some_and(|r| r == "ok" || r.starts_with("ok "))
}

#[test]
fn a_kernel_run_on_a_stream_is_a_timeline_of_its_calls_copies_and_kernel() {
    let path = trace_file("kernel-run");
    let output = crate::child::command("timeline::kernel_run_child")
        .env("AMDGPU_SIM_TRACE", format!("chrome:{}", path.display()))
        .env("AMDGPU_SIM_FAULTS", "hipMalloc@4=2")
        .output()
        .expect("run the child");
    crate::child::assert_passed(&output, "kernel_run_child");
    let trace = read_trace(&path, &output);

    // The calls, each on the calling thread's track with its outcome.
    for call in [
        "hipModuleLoadData",
        "hipModuleLaunchKernel",
        "hipStreamSynchronize",
    ] {
        let events = trace.named(call);
        assert_eq!(events.len(), 1, "{call}: {events:?}");
        let event = events[0];
        assert_eq!(event.ph, "X", "{call}");
        assert!(
            trace.track_of(event).contains("(thread "),
            "{call}: {event:?}"
        );
        assert!(succeeded(event), "{call}: {event:?}");
    }
    // Three buffers filled, one read back, each a slice of the calling
    // thread and a copy on the null stream's track.
    let memcpys = trace.named("hipMemcpy");
    assert_eq!(memcpys.len(), 4, "{memcpys:?}");
    let copy_track = |name: &str| {
        trace
            .named(name)
            .iter()
            .map(|e| trace.track_of(e).to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        copy_track("copy HtoD"),
        vec!["stream 0x0 (null stream, device 0)"; 3]
    );
    assert_eq!(
        copy_track("copy DtoH"),
        ["stream 0x0 (null stream, device 0)"]
    );
    let readback = trace.named("copy DtoH")[0];
    assert_eq!(readback.args["bytes"], N * 4);

    // The kernel on the created stream's track.
    let kernels = trace.named(KERNEL);
    assert_eq!(kernels.len(), 1, "{kernels:?}");
    let kernel = kernels[0];
    let track = trace.track_of(kernel);
    assert!(
        track.starts_with("stream 0x") && !track.contains("null"),
        "{track}"
    );
    assert_eq!(kernel.args["grid"], json!([32, 1, 1]));
    assert_eq!(kernel.args["block"], json!([32, 1, 1]));
    assert_eq!(kernel.args["waves"], ELEMENTWISE_WAVES);
    assert_eq!(
        kernel.args["instructions"],
        ELEMENTWISE_WAVE_INSTRUCTIONS * ELEMENTWISE_WAVES
    );
    let launch = trace.named("hipModuleLaunchKernel")[0];
    assert!(kernel.ts_ns >= launch.ts_ns, "{kernel:?} before {launch:?}");

    // The injected failure: an instant, and the call's outcome.
    let injected = trace.named("injected failure: hipMalloc");
    assert_eq!(injected.len(), 1, "{:?}", trace.events);
    assert_eq!(injected[0].ph, "i");
    assert_eq!(injected[0].args["result"], "2 hipErrorOutOfMemory");
    let mallocs = trace.named("hipMalloc");
    assert_eq!(mallocs.len(), 4);
    assert_eq!(mallocs[3].args["injected"], "yes", "{:?}", mallocs[3]);
    assert_eq!(trace.other["dropped_events"], 0);
}

#[test]
#[ignore = "run by a_kernel_run_on_a_stream_is_a_timeline_of_its_calls_copies_and_kernel, in a child"]
fn kernel_run_child() {
    crate::hip_streams::setup();
    let k = load(&kernels::fixture());
    let a: Vec<f32> = (0..N).map(|i| i as f32).collect();
    let (da, db, dc) = (
        device_buffer(&a),
        device_buffer(&a),
        device_buffer(&vec![0.0; N]),
    );
    let mut stream = std::ptr::null_mut();
    // SAFETY: valid out-pointer.
    ok(unsafe { hipStreamCreateWithFlags(&mut stream, 0) });
    ok(launch(k.function, stream, [da, db, dc]));
    ok(unsafe { hipStreamSynchronize(stream) });
    let mut c = vec![0f32; N];
    // SAFETY: `c` holds N floats.
    ok(unsafe { hipMemcpy(c.as_mut_ptr().cast(), dc, N * 4, D2H) });
    assert_eq!(c[3], 3.0 * 3.0 + 3.0);
    // `hipMalloc@4=2`: the fourth allocation fails by injection.
    let mut p = std::ptr::null_mut();
    // SAFETY: valid out-pointer.
    assert_eq!(unsafe { hipMalloc(&mut p, 64) }, hipErrorOutOfMemory);
    // SAFETY: handles of this test's.
    unsafe {
        ok(hipStreamDestroy(stream));
        for p in [da, db, dc] {
            ok(hipFree(p));
        }
        ok(hipModuleUnload(k.module));
    }
}

/// The text trace (`AMDGPU_SIM_TRACE=1`) of the same run says a launch in
/// one short line: the kernel, its grid and block in decimal, its kernarg
/// bytes and how many instructions its program has, never the program
/// itself (kilobytes a launch).
#[test]
fn the_text_trace_says_a_launch_in_one_short_line() {
    // `--nocapture`: the trace is the library's `eprintln!`, which the
    // child's test harness would otherwise keep.
    let output = crate::child::command("timeline::kernel_run_child")
        .arg("--nocapture")
        .env("AMDGPU_SIM_TRACE", "1")
        .env("AMDGPU_SIM_FAULTS", "hipMalloc@4=2")
        .output()
        .expect("run the child");
    crate::child::assert_passed(&output, "kernel_run_child");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let line = stderr
        .lines()
        .find(|l| l.starts_with("amdgpu-sim: hipModuleLaunchKernel("))
        .unwrap_or_else(|| panic!("no launch in the trace:\n{stderr}"));
    assert!(line.len() < 400, "{} bytes: {line}", line.len());
    assert!(
        line.contains("-> ok Some(KernelRun { kernel: \"")
            && line.contains("grid: [32, 1, 1], block: [32, 1, 1], dynamic_lds: 0"),
        "{line}"
    );
    let instructions: u64 = line
        .rsplit_once("instructions: ")
        .and_then(|(_, n)| n.trim_end_matches([' ', '}', ')']).parse().ok())
        .unwrap_or_else(|| panic!("{line}"));
    assert!(instructions >= ELEMENTWISE_WAVE_INSTRUCTIONS, "{line}");
}

/// A kernel dispatch packet is a slice on its queue's track, named by its
/// kernel, with the packet's sizes (in work-items, as the packet gives
/// them) and what the kernel executed.
#[test]
fn an_aql_dispatch_is_a_slice_on_its_queues_track() {
    let path = trace_file("aql");
    let exe = std::env::current_exe().expect("test binary path");
    let output = std::process::Command::new(exe)
        .args([
            "--exact",
            "aql::a_dispatch_packet_runs_its_kernel",
            "--test-threads=1",
        ])
        .env("AMDGPU_SIM_TRACE", format!("chrome:{}", path.display()))
        .env_remove("AMDGPU_SIM_FAULTS")
        .output()
        .expect("run the child");
    crate::child::assert_passed(&output, "aql::a_dispatch_packet_runs_its_kernel");
    let trace = read_trace(&path, &output);
    let kernels = trace.named(KERNEL);
    assert_eq!(kernels.len(), 1, "{:?}", trace.events);
    let kernel = kernels[0];
    assert!(trace.track_of(kernel).starts_with("queue 0x"), "{kernel:?}");
    assert_eq!(kernel.args["grid_size"], json!([1024, 1, 1]));
    assert_eq!(kernel.args["workgroup_size"], json!([32, 1, 1]));
    assert_eq!(kernel.args["packet"], 0);
    assert_eq!(
        kernel.args["instructions"],
        ELEMENTWISE_WAVE_INSTRUCTIONS * ELEMENTWISE_WAVES
    );
    for call in [
        "hsa_queue_create",
        "hsa_queue_destroy",
        "hsa_signal_wait_scacquire",
    ] {
        assert!(!trace.named(call).is_empty(), "{call}: {:?}", trace.events);
    }
}

/// `%p` in the file's name is the writing process's id, so that each
/// process of a run keeps its own timeline.
#[test]
fn a_timeline_named_with_percent_p_is_the_processs_own() {
    let dir = std::env::temp_dir().join(format!("amdgpu-timeline-pid-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a directory");
    let exe = std::env::current_exe().expect("test binary path");
    let child = std::process::Command::new(exe)
        .args([
            "--exact",
            "aql::a_dispatch_packet_runs_its_kernel",
            "--test-threads=1",
        ])
        .env(
            "AMDGPU_SIM_TRACE",
            format!("chrome:{}/trace.%p.json", dir.display()),
        )
        .env_remove("AMDGPU_SIM_FAULTS")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run the child");
    let pid = child.id();
    let output = child.wait_with_output().expect("the child's output");
    crate::child::assert_passed(&output, "aql::a_dispatch_packet_runs_its_kernel");
    let trace = read_trace(&dir.join(format!("trace.{pid}.json")), &output);
    assert_eq!(trace.named(KERNEL).len(), 1, "{:?}", trace.events);
    let _ = std::fs::remove_dir(&dir);
}

/// A faulting kernel aborts the process (the default policy); the
/// timeline is written before, complete and valid, with the fault as an
/// instant on the kernel's stream and the calls still open marked so.
#[test]
fn a_kernel_fault_that_aborts_the_process_leaves_a_complete_timeline() {
    use std::os::unix::process::ExitStatusExt;
    let path = trace_file("abort");
    let output = crate::child::command("kernels::aborting_child")
        .arg("--nocapture")
        .env("AMDGPU_SIM_MACHINE", "w7900")
        .env("AMDGPU_SIM_TRACE", format!("chrome:{}", path.display()))
        .env_remove("AMDGPU_SIM_ON_FAULT")
        .env_remove("AMDGPU_SIM_FAULTS")
        .output()
        .expect("run the child");
    assert_eq!(output.status.signal(), Some(6), "{output:?}");
    let trace = read_trace(&path, &output);
    let fault = trace.named(&format!("kernel fault: {KERNEL}"));
    assert_eq!(fault.len(), 1, "{:?}", trace.events);
    assert_eq!(fault[0].ph, "i");
    let kernel = trace.named(KERNEL);
    assert_eq!(kernel.len(), 1, "{:?}", trace.events);
    assert_eq!(trace.track_of(fault[0]), trace.track_of(kernel[0]));
    assert!(trace.track_of(kernel[0]).starts_with("stream 0x"));
    assert!(kernel[0].args["unfinished"].is_string(), "{:?}", kernel[0]);
    assert!(
        fault[0].ts_ns >= kernel[0].ts_ns && fault[0].ts_ns <= kernel[0].ts_ns + kernel[0].dur_ns,
        "the fault is inside its kernel's slice"
    );
    // Calls that completed before the fault are there with their outcomes.
    assert!(succeeded(trace.named("hipModuleLoadData")[0]));
    assert!(
        trace
            .events
            .iter()
            .all(|e| e.args.get("unfinished").is_none() || e.ph == "X"),
        "only slices are unfinished"
    );
    let _: &Value = &trace.other;
}
