//! IREE's `iree-run-module` (PyPI `iree-base-runtime==3.13.0`, unmodified)
//! runs the elementwise module on the w7900 preset through this library
//! as its `libamdhip64` (`--hip_dylib_path`) with the timeline on: the
//! file passes the format's rules and holds IREE's HIP calls (module load,
//! launch, copies, on the threads that made them), the copies on a stream's track and the kernel on one
//! with its grid and the instructions the module's code executes, counted
//! from its disassembly, not from the interpreter.
//!
//! IREE's own AMDGPU driver (`iree-run-module --device=amdgpu`, as
//! `scripts/iree-cts/build.sh` builds it) puts every dispatch, its
//! built-in copy kernels' included, on its queue's track.
//!
//! Without IREE's runtime, or its build, each test prints one `skipped:`
//! line (a failure under `AMDGPU_HAL_REQUIRE_ALL=1`).

use std::path::PathBuf;
use std::process::{Command, Stdio};

use serde_json::json;

use super::{ELEMENTWISE_WAVE_INSTRUCTIONS, KERNEL, check, succeeded};

/// The pip package whose `iree-run-module` the test runs.
const IREE_RUNTIME: &str = "iree-base-runtime==3.13.0";

/// `iree-run-module` of the package the `python3` on `PATH` imports (the
/// binary itself, not its console-script wrapper).
fn iree_run_module() -> Option<PathBuf> {
    let output = Command::new("python3")
        .args([
            "-c",
            "import iree._runtime_libs as m, os; print(os.path.dirname(m.__file__))",
        ])
        .stderr(Stdio::null())
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    let dir = String::from_utf8(output.stdout).ok()?;
    Some(PathBuf::from(dir.trim()).join("iree-run-module")).filter(|p| p.is_file())
}

fn repository(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
}

#[test]
fn an_iree_run_is_a_timeline_of_its_hip_calls_copies_and_kernel() {
    let what = "the timeline of an IREE run";
    let Some(iree) = iree_run_module() else {
        crate::rocminfo::skip(what, &format!("needs pip package {IREE_RUNTIME}"));
        return;
    };
    let module = repository("fixtures/iree/vmfb/elementwise.gfx1100.vmfb");
    // The module's kernel is the gfx1100 fixture's code, byte for byte:
    // its disassembly gives the instructions each wave executes.
    let hsaco = std::fs::read(repository("fixtures/iree/elementwise.gfx1100.hsaco")).unwrap();
    let vmfb = std::fs::read(&module).unwrap();
    let code = &hsaco[0x700..0x7a0];
    assert!(
        vmfb.windows(code.len()).any(|w| w == code),
        "the module embeds the fixture's kernel code"
    );

    let exe = std::env::current_exe().expect("test binary path");
    let library = exe.parent().expect("deps dir").join("libamdgpu_sim_ffi.so");
    let dir = std::env::temp_dir();
    let trace_path = dir.join(format!("amdgpu-timeline-iree-{}.json", std::process::id()));
    let report_path = dir.join(format!(
        "amdgpu-timeline-iree-{}.report",
        std::process::id()
    ));
    let output = Command::new(&iree)
        .arg(format!("--hip_dylib_path=file:{}", library.display()))
        .args([
            "--device=hip://0",
            &format!("--module={}", module.display()),
            "--function=elementwise",
            "--input=4096xf32=1",
            "--input=4096xf32=2",
        ])
        .env("AMDGPU_SIM_MACHINE", "w7900")
        .env(
            "AMDGPU_SIM_TRACE",
            format!("chrome:{}", trace_path.display()),
        )
        .env("AMDGPU_SIM_REPORT", &report_path)
        .env_remove("AMDGPU_SIM_FAULTS")
        .env_remove("AMDGPU_SIM_KERNELS")
        .env_remove("AMDGPU_SIM_ON_FAULT")
        .output()
        .expect("run iree-run-module");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}{stderr}");
    // a * b + a with a = 1, b = 2.
    assert!(stdout.contains("4096xf32=3 3 3"), "{stdout}");
    let text = std::fs::read_to_string(&trace_path).expect("the timeline");
    let report = std::fs::read_to_string(&report_path).expect("the report");
    let _ = std::fs::remove_file(&trace_path);
    let _ = std::fs::remove_file(&report_path);
    let trace = check(&text).unwrap_or_else(|e| panic!("the timeline breaks a rule: {e}"));

    // IREE's HIP calls, on its threads' tracks, each succeeding.
    // IREE loads its module with `hipModuleLoadDataEx`.
    for call in ["hipModuleLoadDataEx", "hipModuleLaunchKernel"] {
        let events = trace.named(call);
        assert_eq!(events.len(), 1, "{call}");
        assert!(succeeded(events[0]), "{call}: {:?}", events[0]);
        assert!(trace.track_of(events[0]).contains("(thread "));
    }
    let memcpys: Vec<_> = trace
        .events
        .iter()
        .filter(|e| e.ph == "X" && e.name.starts_with("hipMemcpy"))
        .collect();
    assert!(!memcpys.is_empty(), "no hipMemcpy call");
    let copies: Vec<_> = trace
        .events
        .iter()
        .filter(|e| e.ph == "X" && e.name.starts_with("copy "))
        .collect();
    assert!(!copies.is_empty(), "no copy slice");
    for copy in &copies {
        assert!(trace.track_of(copy).starts_with("stream 0x"), "{copy:?}");
    }

    // The one kernel the report counts, on a stream's track.
    assert!(report.contains("launches_executed 1\n"), "{report}");
    let kernels = trace.named(KERNEL);
    assert_eq!(kernels.len(), 1, "{:?}", trace.events);
    let kernel = kernels[0];
    assert!(trace.track_of(kernel).starts_with("stream 0x"));
    // 4096 elements, 4 per work-item: 1024 work-items.
    assert_eq!(kernel.args["grid"], json!([32, 1, 1]));
    assert_eq!(kernel.args["block"], json!([32, 1, 1]));
    // gfx1100 runs wave32 here: one wave per block.
    let waves = 32;
    assert_eq!(kernel.args["waves"], waves);
    assert_eq!(
        kernel.args["instructions"],
        ELEMENTWISE_WAVE_INSTRUCTIONS * waves
    );
}

#[test]
fn an_iree_amdgpu_run_puts_each_dispatch_on_its_queues_track() {
    let what = "the timeline of an IREE run on its AMDGPU driver";
    let Some(iree) = crate::iree_built::iree_tool("iree-run-module", what) else {
        return;
    };
    let libdir = crate::iree_built::sim_lib_dir("timeline-amdgpu");
    let dir = std::env::temp_dir();
    let trace_path = dir.join(format!("amdgpu-timeline-aql-{}.json", std::process::id()));
    let report_path = dir.join(format!("amdgpu-timeline-aql-{}.report", std::process::id()));
    let module = repository("fixtures/iree/amdgpu/multi_dispatch.gfx942.vmfb");
    let output = Command::new(&iree)
        .args([
            "--device=amdgpu",
            &format!("--module={}", module.display()),
            "--function=multi_dispatch",
            "--input=64x128xf32=1",
            "--input=128x32xf32=1",
        ])
        .env("AMDGPU_SIM_MACHINE", "mi300x-8")
        .env("IREE_HAL_AMDGPU_LIBHSA_PATH", &libdir)
        .env("LD_PRELOAD", libdir.join("libamdgpu_sim_kfd.so"))
        .env(
            "AMDGPU_SIM_TRACE",
            format!("chrome:{}", trace_path.display()),
        )
        .env("AMDGPU_SIM_REPORT", &report_path)
        .env_remove("AMDGPU_SIM_FAULTS")
        .env_remove("AMDGPU_SIM_KERNELS")
        .env_remove("AMDGPU_SIM_ON_FAULT")
        .output()
        .expect("run iree-run-module");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = std::fs::read_to_string(&trace_path).expect("the timeline");
    let report = std::fs::read_to_string(&report_path).expect("the report");
    let _ = std::fs::remove_file(&trace_path);
    let _ = std::fs::remove_file(&report_path);
    let trace = check(&text).unwrap_or_else(|e| panic!("the timeline breaks a rule: {e}"));
    for call in ["hsa_init", "hsa_queue_create"] {
        assert!(!trace.named(call).is_empty(), "{call}");
    }
    let dispatches: Vec<_> = trace
        .events
        .iter()
        .filter(|e| e.ph == "X" && trace.track_of(e).starts_with("queue 0x"))
        .collect();
    // Every kernel the node ran is one slice, named by its kernel, with
    // what it executed.
    let executed = report
        .lines()
        .find_map(|l| l.strip_prefix("launches_executed "))
        .and_then(|n| n.parse::<usize>().ok())
        .expect("launches_executed in the report");
    assert_eq!(dispatches.len(), executed, "{dispatches:?}");
    for kernel in [
        "multi_dispatch_dispatch_0_matmul_64x32x128_f32",
        "multi_dispatch_dispatch_1_reduction_64x32_f32",
        "multi_dispatch_dispatch_2_transpose_64x128_f32",
    ] {
        let slices: Vec<_> = dispatches.iter().filter(|e| e.name == kernel).collect();
        assert_eq!(slices.len(), 1, "{kernel}: {dispatches:?}");
        assert!(
            slices[0].args["instructions"]
                .as_u64()
                .is_some_and(|n| n > 0)
        );
    }
}
