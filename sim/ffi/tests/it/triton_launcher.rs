//! Triton's own HIP launcher on the node: `scripts/triton-launcher-check.py`
//! loads the pip `triton` wheel's `triton/backends/amd/driver.py` with
//! `TRITON_LIBHIP_PATH` at this build's library (named `libamdhip64.so`),
//! so Triton's C helper resolves every function through
//! `hipGetProcAddress` and reads ROCm 6's properties; it compiles
//! `fixtures/triton/kernels.py`'s vector add for the chip with
//! `triton.compile`, launches it plainly and cooperatively through
//! `HIPLauncher`, and compares with numpy (the script's own checks, listed
//! in its header). The run's timeline shows the calls Triton made. Skips in
//! one line without pip `triton` or `numpy`.

use std::path::Path;
use std::process::Command;

use crate::rocminfo::skip;

/// `(machine, chip, wave)` runs.
const RUNS: &[(&str, &str, &str)] = &[("mi300x-8", "gfx942", "64"), ("w7900", "gfx1100", "32")];

fn python_has(module: &str) -> bool {
    Command::new("python3")
        .args(["-c", &format!("import {module}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn tritons_hip_launcher_loads_the_library_and_launches_a_compiled_kernel() {
    let what = "Triton's HIP launcher on the node";
    for module in ["triton", "numpy"] {
        if !python_has(module) {
            return skip(what, &format!("needs pip package {module}"));
        }
    }
    let exe = std::env::current_exe().expect("test binary path");
    let library = exe.parent().expect("deps dir").join("libamdgpu_sim_ffi.so");
    let script =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/triton-launcher-check.py");
    for (machine, chip, wave) in RUNS {
        let trace = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("triton-{machine}.json"));
        let _ = std::fs::remove_file(&trace);
        let output = Command::new("python3")
            .arg(&script)
            .arg(&library)
            .args([chip, wave])
            .env("AMDGPU_SIM_MACHINE", machine)
            .env("AMDGPU_SIM_TRACE", format!("chrome:{}", trace.display()))
            .env("TRITON_DEFAULT_FP_FUSION", "1")
            .env_remove("AMDGPU_SIM_FAULTS")
            .env_remove("AMDGPU_SIM_ON_FAULT")
            .output()
            .expect("python3");
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            output.status.success() && stdout.ends_with("PASS\n"),
            "{machine}: {stdout}{stderr}"
        );
        assert_eq!(
            stdout.matches("equals numpy's x + y").count(),
            2,
            "{stdout}"
        );
        // The timeline names every call the launcher made.
        let timeline = std::fs::read_to_string(&trace).expect("the run's timeline");
        let called = |name: &str| timeline.contains(&format!("\"name\":\"{name}\""));
        for name in [
            "hipDriverGetVersion",
            "hipGetProcAddress",
            "hipGetDevicePropertiesR0600",
            "hipModuleLoadDataEx",
            "hipFuncGetAttribute",
            "hipPointerGetAttribute",
            "hipModuleLaunchKernel",
            "hipModuleLaunchCooperativeKernel",
        ] {
            assert!(called(name), "{machine}: no {name} in the timeline");
        }
    }
}
